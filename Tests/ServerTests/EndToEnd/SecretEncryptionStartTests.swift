import Foundation
import Storage
import StorageSQLite
import TestSupport
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("Signing keys at rest across starts: a key file configured later encrypts the stored keys")
struct SecretEncryptionStartTests {
    @Test(
        "a SQLite server started without, then with the key file: its keys are encrypted at that start, keys rotate seals, and a start without the file is refused"
    )
    func startsAndRotation() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("passkeyd-kek-e2e-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyFile = try SecretEncryptionTests.keyFile()
        let plain = try TestConfiguration.make([
            "PASSKEYD_LISTEN_PORT": "0", "PASSKEYD_DATA_DIRECTORY": directory.path,
        ])
        var encrypted = plain
        encrypted.encryptionAtRest.keyFile = keyFile
        let lines = PasskeyHarness.LogLines()
        let logger = Logger(sink: { lines.append($0) })

        let first = try await PasskeydServer.start(configuration: plain, logger: logger)
        let jwks = try await first.context.tokens.jwksBytes()
        await first.stop()
        #expect(
            lines.all.contains {
                $0.contains(
                    "secrets at rest (token-signing keys, password verifiers, SRP sessions, server secrets) are stored unencrypted"
                )
            })
        #expect(try await Self.storedKeys(directory).allSatisfy { !SecretEncryption.isSealed($0.privateKey) })

        // A password verifier enrolled while there was no key file: stored as enrolled.
        let enrolled = [UInt8](repeating: 0x5a, count: 200)
        try await Self.storeVerifier(enrolled, directory)

        let second = try await PasskeydServer.start(configuration: encrypted, logger: logger)
        #expect(try await second.context.tokens.jwksBytes() == jwks, "the same keys, now opened from their envelopes")
        await second.stop()
        let started = try #require(
            lines.all.first {
                $0.contains(
                    "secrets at rest (token-signing keys, password verifiers, SRP sessions, server secrets) are encrypted"
                )
            })
        #expect(started.contains("encrypted_now"), "\(started)")
        #expect(started.contains("verifiers_encrypted_now"), "\(started)")
        let verifier = try #require(try await Self.storedVerifier(directory))
        #expect(SecretEncryption.isSealed(verifier) && verifier.count > 384)
        let stored = try await Self.storedKeys(directory)
        #expect(stored.count == 2 && stored.allSatisfy { SecretEncryption.isSealed($0.privateKey) })

        // `keys list` shows them sealed, under the configured file's key.
        let listed = try await KeysListCommand.statuses(configuration: plain)
        let fingerprint = try SecretEncryption.load(path: keyFile).fingerprintText
        #expect(listed.count == 2 && listed.allSatisfy { $0.sealedBy == fingerprint && $0.state == .signing })
        let (kids, _) = try await KeysRotateCommand.rotate(configuration: encrypted, immediately: true)
        let rotated = try await Self.storedKeys(directory).filter { kids.contains($0.kid) }
        #expect(rotated.count == 2 && rotated.allSatisfy { SecretEncryption.isSealed($0.privateKey) })
        // `keys rotate` without the file the servers use would store keys they could not tell from theirs: it is
        // refused as soon as the file cannot serve.
        var broken = encrypted
        broken.encryptionAtRest.keyFile = keyFile + ".missing"
        await #expect(throws: SecretEncryption.Failure.self) {
            try await KeysRotateCommand.rotate(configuration: broken)
        }

        do {
            let third = try await PasskeydServer.start(configuration: plain, logger: logger)
            await third.stop()
            Issue.record("a server without the key file started on encrypted keys")
        } catch let error as PasskeydServer.StartError {
            #expect(error.description.contains("is encrypted at rest"), "\(error)")
            #expect(error.description.contains("encryption_at_rest.key_file"), "\(error)")
        }
    }

    /// The signing keys as stored in `directory`'s SQLite database.
    /// Stores a user and `verifier` as theirs, straight into the SQLite database in `directory`.
    static func storeVerifier(_ verifier: [UInt8], _ directory: URL) async throws {
        let store = try await SQLiteStore.open(SQLiteConfiguration(directory: directory.path, synchronous: .normal))
        let user = User(id: "u-srp", userHandle: [7], realm: "main", email: "srp@example.com", createdAt: Date())
        let credential = Credential(
            credentialID: [7], userID: user.id, publicKey: [1], algorithm: -7, signCount: 0, uvInitialized: false,
            backupEligible: false, backedUp: false, transports: [], aaguid: [], attestationFormat: "none",
            createdAt: Date())
        try await store.write { writer in
            try writer.insertUser(user, credential: credential)
            try writer.storePasswordVerifier(
                PasswordVerifier(
                    userID: user.id, realm: "main", identity: "srp@example.com", salt: [UInt8](repeating: 1, count: 16),
                    verifier: verifier, updatedAt: Date()))
        }
        await store.close()
    }

    /// The verifier bytes `storeVerifier` stored, as they are now.
    static func storedVerifier(_ directory: URL) async throws -> [UInt8]? {
        let store = try await SQLiteStore.open(SQLiteConfiguration(directory: directory.path, synchronous: .normal))
        let record = try await store.read { try $0.passwordVerifier(userID: "u-srp") }
        await store.close()
        return record?.verifier
    }

    static func storedKeys(_ directory: URL) async throws -> [SigningKey] {
        let store = try await SQLiteStore.open(SQLiteConfiguration(directory: directory.path, synchronous: .normal))
        let keys = try await store.read { try $0.signingKeys() }
        await store.close()
        return keys
    }
}
