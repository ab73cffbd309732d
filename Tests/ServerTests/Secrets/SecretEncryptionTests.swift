import Crypto
import Foundation
import HTTP
import JSON
import Storage
import TestSupport
import Testing
import Tokens

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("Secrets at rest (encryption_at_rest): the token-signing keys and the SRP sessions' server secrets")
struct SecretEncryptionTests {
    static let variable = "PASSKEYD_ENCRYPTION_AT_REST_KEY_FILE"

    /// A key-encryption key file of `bytes` (32 random ones by default) with `mode`, in a fresh directory.
    static func keyFile(mode: Int = 0o600, bytes: [UInt8]? = nil) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("passkeyd-kek-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/signing-keys.kek"
        let content = try bytes ?? SecureRandom.bytes(count: 32)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(content)))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    static func service(_ store: any Store, keyFile: String?, clock: TestClock = TestClock()) throws -> TokenService {
        let configuration = try TestConfiguration.make(keyFile.map { [variable: $0] } ?? [:])
        return TokenService(configuration: configuration, store: store, clock: clock)
    }

    /// `key` as a node sealing under `encryption` stores it.
    static func sealed(_ key: SigningKey, _ encryption: SecretEncryption) throws -> SigningKey {
        try SecretEncryptionKeys(sealing: encryption, openingOnly: []).stored(key)
    }

    static func sample(kid: String = "k1") throws -> SigningKey {
        var key = try SigningKeyRing.generateKey(.es256, now: Date(timeIntervalSince1970: 1_800_000_000))
        key.kid = kid
        return key
    }

    @Test("a sealed key holds no PKCS#8 in the clear and opens back; a plain one passes through")
    func sealAndOpen() throws {
        let encryption = try SecretEncryption(key: SecureRandom.bytes(count: 32))
        let key = try Self.sample()
        let sealed = try Self.sealed(key, encryption)
        #expect(SecretEncryption.isSealed(sealed.privateKey))
        #expect(!SecretEncryption.isSealed(key.privateKey), "PKCS#8 DER starts with 0x30")
        #expect(sealed.publicKey == key.publicKey && sealed.kid == key.kid && sealed.createdAt == key.createdAt)
        // No 16-byte window of the private key survives in the envelope.
        let windows = stride(from: 0, to: key.privateKey.count - 16, by: 8).map { Array(key.privateKey[$0..<$0 + 16]) }
        let envelope = sealed.privateKey
        #expect(
            !windows.contains { window in
                (0...(envelope.count - 16)).contains { Array(envelope[$0..<$0 + 16]) == window }
            })
        #expect(try SecretEncryptionKeys(sealing: encryption, openingOnly: []).open(sealed) == key)
        #expect(try SecretEncryptionKeys(sealing: encryption, openingOnly: []).open(key) == key)
        #expect(try SecretEncryptionKeys.none.open(key) == key)
    }

    @Test("a sealed key does not open without the key, under another key, altered, or moved to another kid's row")
    func refusals() throws {
        let encryption = try SecretEncryption(key: SecureRandom.bytes(count: 32))
        let other = try SecretEncryption(key: SecureRandom.bytes(count: 32))
        let sealed = try Self.sealed(try Self.sample(), encryption)
        func failure(_ key: SigningKey, _ with: SecretEncryption?) -> String {
            do {
                _ = try SecretEncryptionKeys(sealing: with, openingOnly: []).open(key)
                return "opened"
            } catch {
                return "\(error)"
            }
        }
        #expect(
            failure(sealed, nil).contains("is encrypted at rest (key-encryption key \(encryption.fingerprintText))"))
        #expect(failure(sealed, other).contains("not under this node's \(other.fingerprintText)"))
        var altered = sealed
        altered.privateKey[altered.privateKey.count - 1] ^= 1
        #expect(failure(altered, encryption).contains("does not authenticate"))
        var moved = sealed
        moved.kid = "k2"
        #expect(failure(moved, encryption).contains("does not authenticate"), "the kid is authenticated")
        var relabelled = sealed
        relabelled.algorithm = "RS256"
        #expect(failure(relabelled, encryption).contains("does not authenticate"), "the algorithm is authenticated")
        var truncated = sealed
        truncated.privateKey = Array(sealed.privateKey.prefix(12))
        #expect(failure(truncated, encryption).contains("truncated"))
    }

    @Test("the key file must hold exactly 32 bytes, be a regular file, and be closed as PostgreSQL's key files are")
    func keyFileRules() throws {
        #expect(throws: Never.self) { try SecretEncryption.load(path: try Self.keyFile()) }
        #expect(throws: Never.self) { try SecretEncryption.load(path: try Self.keyFile(mode: 0o400)) }
        func reason(_ path: String) -> String {
            do {
                _ = try SecretEncryption.load(path: path)
                return "loaded"
            } catch {
                return error.description
            }
        }
        // PostgreSQL's rule: root's file may be read by its group (the unit's model), nothing more; another user's
        // file is refused whatever its mode.
        let owner = geteuid()
        let groupReadable = try Self.keyFile(mode: 0o640)
        if owner == 0 {
            #expect(throws: Never.self) { try SecretEncryption.load(path: groupReadable) }
            #expect(reason(try Self.keyFile(mode: 0o660)).contains("owned by root with mode 660: at most 0640"))
            #expect(reason(try Self.keyFile(mode: 0o644)).contains("owned by root with mode 644"))
            let foreign = try Self.keyFile()
            #expect(chown(foreign, 4_242, 4_242) == 0)
            #expect(reason(foreign).contains("must be owned by the user passkeyd runs as"))
        } else {
            #expect(reason(groupReadable).contains("accessible to group or others (mode 640)"))
            #expect(reason(try Self.keyFile(mode: 0o604)).contains("chmod 600"))
        }
        #expect(reason(try Self.keyFile(bytes: [UInt8](repeating: 7, count: 31))).contains("exactly 32 bytes"))
        #expect(reason(try Self.keyFile(bytes: [UInt8](repeating: 7, count: 44))).contains("it holds 44"))
        #expect(reason("/nonexistent/kek").contains("cannot read"))
        // The wrapped form (encryption_at_rest.pkcs11) is told apart from a key, and checked before any HSM is asked.
        func text(_ content: String) throws -> String { try Self.keyFile(bytes: Array(content.utf8)) }
        #expect(
            reason(try text(KeyEncryptionKeyFile.wrappedPrefix + "AAAA\n")).contains("set encryption_at_rest.pkcs11"))
        #expect(reason(try text(KeyEncryptionKeyFile.wrappedPrefix + "not base64!\n")).contains("not valid base64"))
        #expect(reason(try text("passkeyd-wrapped-key v9 AAAA\n")).contains("exactly 32 bytes"))
        #expect(
            reason(try Self.keyFile(bytes: [UInt8](repeating: 7, count: KeyEncryptionKeyFile.maximumByteCount + 1)))
                .contains("it holds 1025 bytes"))
        #expect(reason(FileManager.default.temporaryDirectory.path).contains("not a regular file"))
        // The same bytes give the same fingerprint (how nodes and operators compare keys), other bytes another.
        let bytes = try SecureRandom.bytes(count: 32)
        let first = try SecretEncryption.load(path: try Self.keyFile(bytes: bytes))
        let second = try SecretEncryption.load(path: try Self.keyFile(bytes: bytes))
        #expect(first.fingerprintText == second.fingerprintText && first.fingerprintText.count == 16)
        #expect(try SecretEncryption.load(path: try Self.keyFile()).fingerprintText != first.fingerprintText)
    }

    @Test("configured: the keys are stored sealed, other nodes with the file load them, nodes without it refuse")
    func configuredNodes() async throws {
        let store = MemoryStore()
        let file = try Self.keyFile()
        let node = try Self.service(store, keyFile: file)
        try await node.bootstrap()
        let stored = try await store.read { try $0.signingKeys() }
        #expect(stored.count == 2)
        #expect(stored.allSatisfy { SecretEncryption.isSealed($0.privateKey) })
        #expect(node.keyEncryptionFingerprint != nil)
        // Another node with the same file signs with the same keys and publishes the same JWKS.
        let second = try Self.service(store, keyFile: file)
        try await second.bootstrap()
        #expect(try await second.jwksBytes() == node.jwksBytes())
        // A node without it, or with another key, does not start (and says why).
        await #expect(throws: SecretEncryption.Failure.self) {
            try await Self.service(store, keyFile: nil).bootstrap()
        }
        await #expect(throws: SecretEncryption.Failure.self) {
            try await Self.service(store, keyFile: try Self.keyFile()).bootstrap()
        }
        // A file that cannot serve stops the start too.
        await #expect(throws: SecretEncryption.Failure.self) {
            try await Self.service(store, keyFile: try Self.keyFile(mode: 0o644)).bootstrap()
        }
        // `keys rotate` with it seals the new keys.
        let encryption = try node.keyEncryption.get()
        let (kids, _) = try await TokenService.rotateKeys(
            store: store, now: Date(), immediately: true, encryption: encryption)
        let rotated = try await store.read { try $0.signingKeys() }.filter { kids.contains($0.kid) }
        #expect(rotated.count == 2 && rotated.allSatisfy { SecretEncryption.isSealed($0.privateKey) })
    }

    @Test("a key another process stored unencrypted is sealed by a running node's next reload, in the audit log")
    func reloadSealsPlaintextKey() async throws {
        let store = MemoryStore()
        let clock = TestClock()
        let node = try Self.service(store, keyFile: try Self.keyFile(), clock: clock)
        try await node.bootstrap()
        // `keys rotate` run with a configuration that lacks the key file: its keys are stored as PKCS#8.
        let (kids, _) = try await TokenService.rotateKeys(store: store, now: clock.now(), immediately: true)
        let plain = try await store.read { try $0.signingKeys() }.filter { kids.contains($0.kid) }
        #expect(plain.count == 2 && plain.allSatisfy { !SecretEncryption.isSealed($0.privateKey) })
        clock.advance(TokenService.reloadInterval + 1)
        _ = try await node.currentRing()
        let stored = try await store.read { try $0.signingKeys() }
        #expect(stored.count == 4 && stored.allSatisfy { SecretEncryption.isSealed($0.privateKey) })
        let sealedEvents = try await store.read { try $0.securityEvents(after: 0, limit: 100) }
            .filter { $0.kind == "signing_key_sealed" }
        #expect(Set(sealedEvents.compactMap(\.keyID)) == Set(kids))
        // The node signs with the new keys, opened from their envelopes.
        #expect(try await node.currentRing().jwksBytes == (try await node.jwksBytes()))
    }

    @Test("keys stored before the file was configured are encrypted once at the next start, each by one node")
    func encryptsExistingKeys() async throws {
        let store = MemoryStore()
        try await Self.service(store, keyFile: nil).bootstrap()
        let plain = try await store.read { try $0.signingKeys() }
        #expect(plain.allSatisfy { !SecretEncryption.isSealed($0.privateKey) })
        #expect(try await Self.service(store, keyFile: nil).encryptStoredKeys() == [], "nothing to do without a key")
        let file = try Self.keyFile()
        let node = try Self.service(store, keyFile: file)
        try await node.bootstrap()
        let before = try await node.jwksBytes()
        #expect(Set(try await node.encryptStoredKeys()) == Set(plain.map(\.kid)))
        #expect(try await node.encryptStoredKeys() == [], "already encrypted")
        // Each sealing is in the audit log, once, with the key that now protects the key and what did before.
        let sealedEvents = try await store.read { try $0.securityEvents(after: 0, limit: 100) }
            .filter { $0.kind == "signing_key_sealed" }
        #expect(Set(sealedEvents.compactMap(\.keyID)) == Set(plain.map(\.kid)) && sealedEvents.count == 2)
        let detail = try JSONValue(parsing: try #require(sealedEvents.first?.detail))
        #expect(detail["key_encryption_key"]?.stringValue == node.keyEncryptionFingerprint)
        #expect(detail["previously"]?.stringValue == "unencrypted")
        let stored = try await store.read { try $0.signingKeys() }
        #expect(stored.map(\.kid) == plain.map(\.kid) && stored.map(\.publicKey) == plain.map(\.publicKey))
        #expect(stored.allSatisfy { SecretEncryption.isSealed($0.privateKey) })
        let restarted = try Self.service(store, keyFile: file)
        try await restarted.bootstrap()
        #expect(try await restarted.jwksBytes() == before)
    }

    @Test(
        "rotating the key-encryption key without downtime: nodes first also open with the new key, then seal with it; the keys are sealed again once"
    )
    func keyEncryptionKeyRotation() async throws {
        let store = MemoryStore()
        let old = try Self.keyFile()
        let new = try Self.keyFile()
        func node(sealing: String, opening: [String] = []) throws -> TokenService {
            var environment = [Self.variable: sealing]
            if !opening.isEmpty {
                environment["PASSKEYD_ENCRYPTION_AT_REST_DECRYPTION_KEY_FILES"] =
                    "[" + opening.map { "\"\($0)\"" }.joined(separator: ",") + "]"
            }
            return TokenService(
                configuration: try TestConfiguration.make(environment), store: store, clock: TestClock())
        }
        let first = try node(sealing: old)
        try await first.bootstrap()
        let jwks = try await first.jwksBytes()
        let oldPrint = try #require(first.keyEncryptionFingerprint)
        // Phase 1, node by node: the old key still seals, the new one also opens. Nothing is sealed again.
        let phase1 = try node(sealing: old, opening: [new])
        try await phase1.bootstrap()
        #expect(try await phase1.encryptStoredKeys() == [])
        // Phase 2, node by node: the new key seals, the old one only opens. The first such node seals every key
        // again; a phase-1 node not restarted yet still opens them (it has the new key).
        let phase2 = try node(sealing: new, opening: [old])
        try await phase2.bootstrap()
        let newPrint = try #require(phase2.keyEncryptionFingerprint)
        #expect(try await phase2.encryptStoredKeys().count == 2)
        #expect(try await phase2.encryptStoredKeys() == [], "once")
        let resealed = try await store.read { try $0.securityEvents(after: 0, limit: 100) }
            .filter { $0.kind == "signing_key_sealed" }.compactMap(\.detail)
            .map { try JSONValue(parsing: $0)["previously"]?.stringValue }
        #expect(resealed == [oldPrint, oldPrint])
        let stored = try await store.read { try $0.signingKeys() }
        #expect(
            stored.allSatisfy {
                SecretEncryption.sealer(of: $0.privateKey).map { Hex.encode($0) } == newPrint
            })
        let lagging = try node(sealing: old, opening: [new])
        try await lagging.bootstrap()
        #expect(try await lagging.jwksBytes() == jwks)
        #expect(try await phase2.jwksBytes() == jwks)
        // Phase 3: the old file is dropped; a node that has only the old key says which key it lacks.
        let phase3 = try node(sealing: new)
        try await phase3.bootstrap()
        #expect(try await phase3.jwksBytes() == jwks)
        do {
            try await node(sealing: old).bootstrap()
            Issue.record("a node with only the old key-encryption key opened keys sealed under the new one")
        } catch {
            #expect(
                "\(error)".contains(
                    "was encrypted under key-encryption key \(newPrint), not under this node's \(oldPrint)"))
        }
    }

    @Test("keys list: each key's state under the rotation rules, and the key-encryption key that sealed it")
    func keyStatuses() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let rotation = SigningKeyRotation(maxTokenLifetime: 3_600)
        let encryption = try SecretEncryption(key: SecureRandom.bytes(count: 32))
        func key(_ kid: String, created: TimeInterval, retired: TimeInterval? = nil) throws -> SigningKey {
            var key = try Self.sample(kid: kid)
            key.createdAt = now + created
            key.retiredAt = retired.map { now + $0 }
            return key
        }
        let keys = [
            try key("expired", created: -90_000, retired: -80_000),
            try key("retired", created: -7_200, retired: -60),
            try Self.sealed(try key("signing", created: -60, retired: 40), encryption),
            try Self.sealed(try key("pending", created: 40), encryption),
            // Rotated again within the publication delay: it never signs.
            try key("skipped", created: 20, retired: 20),
        ]
        let statuses = SigningKeyStatus.statuses(of: keys, rotation: rotation, now: now)
        let states = Dictionary(uniqueKeysWithValues: statuses.map { ($0.kid, $0.state) })
        #expect(
            states == [
                "expired": .expired, "retired": .retired, "signing": .signing, "pending": .pending,
                "skipped": .retired,
            ])
        #expect(statuses.map(\.kid) == ["pending", "skipped", "signing", "retired", "expired"], "newest first")
        let byKid = Dictionary(uniqueKeysWithValues: statuses.map { ($0.kid, $0) })
        #expect(byKid["signing"]?.sealedBy == encryption.fingerprintText && byKid["retired"]?.sealedBy == nil)
        #expect(byKid["retired"]?.publishedUntil == now - 60 + 3_600)
        #expect(byKid["pending"]?.line.contains("pending, signs from") == true)
        #expect(
            byKid["signing"]?.line.hasSuffix("encrypted (key-encryption key \(encryption.fingerprintText))") == true)
        let json = try JSONValue(parsing: Array(SigningKeyStatus.listing(statuses, json: true).utf8))
        #expect(json.arrayValue?.count == 5)
        #expect(json.arrayValue?[2]["encryption"]?.stringValue == "aes-256-gcm:\(encryption.fingerprintText)")
        #expect(json.arrayValue?[3]["encryption"]?.stringValue == "none")
    }

    @Test("end to end: sign-up and login mint tokens that verify, with every stored private key sealed")
    func endToEnd() async throws {
        let store = MemoryStore()
        let harness = try PasskeyHarness([Self.variable: try Self.keyFile()], store: store)
        var authenticator = Passkey()
        let signedUp = try await harness.signUp(&authenticator)
        let login = try await harness.logIn(&authenticator).jsonValue()
        for token in [signedUp["access_token"]?.stringValue, login["access_token"]?.stringValue] {
            let bearer = try #require(token)
            #expect(await harness.client.get("/userinfo", headers: ["Authorization": "Bearer \(bearer)"]).status == 200)
        }
        let stored = try await store.read { try $0.signingKeys() }
        #expect(stored.count == 2 && stored.allSatisfy { SecretEncryption.isSealed($0.privateKey) })
    }
}

extension SecretEncryption {
    /// The key-encryption key in the file at `path`, which must hold the key itself (not wrapped), read as a node
    /// reads it (`KeyEncryptionKeyFile`, `SecretEncryptionKeys.keys`).
    static func load(path: String, setting: String = "encryption_at_rest.key_file") throws(Failure)
        -> SecretEncryption
    {
        let file = try KeyEncryptionKeyFile.read(path: path, setting: setting)
        return try SecretEncryption(
            file: file, key: try SecretEncryptionKeys.keys(in: [file], pkcs11: nil)[0])
    }
}
