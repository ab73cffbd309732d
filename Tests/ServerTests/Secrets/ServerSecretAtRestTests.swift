import Crypto
import Foundation
import Storage
import TestSupport
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("Secrets at rest: the server secret of stand-in salts and audit pseudonyms is sealed; a start seals it")
struct ServerSecretAtRestTests {
    static let name = PasswordFallback.fakeSaltSecretName

    /// The salt `/srp/challenge` answers for an identity that has no verifier.
    static func standInSalt(_ harness: SRPHarness) async throws -> String {
        let publicA = Base64URL.encode(try harness.srp.clientPublic(secret: try SecureRandom.bytes(count: 32)))
        let answer = try await harness.challenge(identity: "nobody@example.com", clientPublic: publicA).jsonValue()
        return try #require(answer["salt"]?.stringValue)
    }

    static func stored(_ harness: SRPHarness) async throws -> [UInt8] {
        try #require(try await harness.store.read { try $0.serverSecret(name: Self.name) })
    }

    @Test("with a key-encryption key: stored as an envelope bound to its name; the pseudonyms use what it seals")
    func sealed() async throws {
        let (harness, _) = try await PasswordFallbackLoginTests.enrolled([
            SecretEncryptionTests.variable: try SecretEncryptionTests.keyFile()
        ])
        let (response, _) = try await harness.logIn(identity: PasswordFallbackLoginTests.identity, password: "wrong")
        #expect(response.status == 403, "\(response.bodyText)")
        let stored = try await Self.stored(harness)
        #expect(SecretEncryption.isSealed(stored) && stored.count == 4 + 8 + 12 + 32 + 16)
        let keys = try harness.passkeys.context.secrets.get()
        let secret = try keys.namedSecret(stored, name: Self.name)
        #expect(secret.count == SecretEncryptionKeys.namedSecretLength)
        // The failed attempt's identity reference is keyed by the opened secret.
        let attempt = try #require(try await harness.events().last { $0.kind == "srp_login_attempt" })
        let reference = try HMAC.sha256(
            key: secret, message: Array("audit-identity\u{0}main\u{0}\(PasswordFallbackLoginTests.identity)".utf8))
        let detail = String(decoding: attempt.detail ?? [], as: UTF8.self)
        #expect(detail.contains(Base64URL.encode(Array(reference.prefix(16)))), "\(detail)")
        #expect(throws: SecretEncryption.Failure.self) { try keys.namedSecret(stored, name: "another") }
        #expect(throws: SecretEncryption.Failure.self) {
            try SecretEncryptionKeys.none.namedSecret(stored, name: Self.name)
        }
    }

    @Test("without one: 32 bytes as drawn")
    func unencrypted() async throws {
        let harness = try SRPHarness()
        _ = try await Self.standInSalt(harness)
        #expect(try await Self.stored(harness).count == SecretEncryptionKeys.namedSecretLength)
    }

    @Test("a start with a key seals it once, in the audit log, and the stand-in salts stay the same")
    func startSeals() async throws {
        let harness = try SRPHarness()
        let salt = try await Self.standInSalt(harness)
        let before = try await Self.stored(harness)
        let bytes = try SecureRandom.bytes(count: 32)
        let keys = SecretEncryptionKeys(sealing: try SecretEncryption(key: bytes), openingOnly: [])
        let now = harness.clock.now()
        #expect(try await ServerSecretSealing.run(store: harness.store, keys: keys, now: now))
        let after = try await Self.stored(harness)
        #expect(SecretEncryption.isSealed(after))
        #expect(try keys.namedSecret(after, name: Self.name) == before)
        #expect(!(try await ServerSecretSealing.run(store: harness.store, keys: keys, now: now)))
        let events = try await harness.events().filter { $0.kind == "server_secret_sealed" }
        #expect(events.count == 1)
        let detail = String(decoding: events.first?.detail ?? [], as: UTF8.self)
        #expect(detail.contains(#""previously":"unencrypted""#), "\(detail)")
        // A node with the key answers an unknown identity with the same stand-in salt as before.
        let sealedNode = try SRPHarness(
            [SecretEncryptionTests.variable: try SecretEncryptionTests.keyFile(bytes: bytes)],
            store: harness.passkeys.context.backingStore)
        #expect(try await Self.standInSalt(sealedNode) == salt)
    }
}
