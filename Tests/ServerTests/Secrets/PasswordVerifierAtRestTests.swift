import Crypto
import Foundation
import Storage
import TestSupport
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("Secrets at rest: password verifiers are sealed, bound to their user; a start seals those stored before")
struct PasswordVerifierAtRestTests {
    static let identity = PasswordFallbackLoginTests.identity
    static let password = PasswordFallbackLoginTests.password
    /// An envelope's bytes around a verifier padded to the 3072-bit group's width.
    static let sealedLength = 4 + 8 + 12 + 384 + 16

    /// A new key-encryption key, and its bytes (for a key file).
    static func key() throws -> (encryption: SecretEncryption, bytes: [UInt8]) {
        let bytes = try SecureRandom.bytes(count: 32)
        return (try SecretEncryption(key: bytes), bytes)
    }

    /// An event's detail as text.
    static func detail(_ event: SecurityEvent?) -> String {
        event?.detail.map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    static func stored(_ harness: SRPHarness) async throws -> PasswordVerifier {
        try #require(try await harness.store.read { try $0.passwordVerifier(realm: "main", identity: Self.identity) })
    }

    @Test("with a key-encryption key: the verifier and the session's copy are envelopes; the login succeeds")
    func sealedAtEnrolment() async throws {
        let (harness, capture) = try await SRPSecretAtRestTests.enrolled([
            SecretEncryptionTests.variable: try SecretEncryptionTests.keyFile()
        ])
        let record = try await Self.stored(harness)
        #expect(SecretEncryption.isSealed(record.verifier))
        #expect(record.verifier.count == Self.sealedLength)
        let (response, _) = try await harness.logIn(identity: Self.identity, password: Self.password)
        #expect(response.status == 200, "\(response.bodyText)")
        let keys = try harness.passkeys.context.secrets.get()
        let verifier = try keys.verifier(record.verifier, boundTo: .user(record.userID), width: harness.srp.width)
        #expect(verifier.count == harness.srp.width)
        try harness.srp.checkVerifier(verifier)
        // The session holds v sealed to itself, and B was computed from that v.
        let session = try #require(capture.inserted.withLock { $0.first })
        #expect(SecretEncryption.isSealed(session.verifier))
        #expect(
            try keys.verifier(session.verifier, boundTo: .session(session.id), width: harness.srp.width) == verifier)
        #expect(
            try harness.srp.serverPublic(verifier: verifier, secret: try keys.serverSecret(of: session))
                == session.serverPublic)
        // Moved to another user's row, or read by a node without the key, it does not open.
        var moved = record
        moved.userID = "someone-else"
        #expect(throws: SecretEncryption.Failure.self) {
            try keys.verifier(moved.verifier, boundTo: .user(moved.userID), width: harness.srp.width)
        }
        #expect(throws: SecretEncryption.Failure.self) {
            try SecretEncryptionKeys.none.verifier(
                record.verifier, boundTo: .user(record.userID), width: harness.srp.width)
        }
    }

    @Test("without one: the verifier is stored as enrolled, and the session's copy too")
    func unencrypted() async throws {
        let (harness, capture) = try await SRPSecretAtRestTests.enrolled([:])
        let record = try await Self.stored(harness)
        #expect(record.verifier.count <= harness.srp.width)
        #expect(
            try SecretEncryptionKeys.none.verifier(
                record.verifier, boundTo: .user(record.userID), width: harness.srp.width) == record.verifier)
        let (response, _) = try await harness.logIn(identity: Self.identity, password: Self.password)
        #expect(response.status == 200, "\(response.bodyText)")
        #expect(capture.inserted.withLock { $0.first }?.verifier == record.verifier)
    }

    @Test("a start with a key seals the verifiers stored without one, once, in the audit log; logins still work")
    func startSealsUnencrypted() async throws {
        let (harness, _) = try await SRPSecretAtRestTests.enrolled([:])
        let before = try await Self.stored(harness)
        let (sealing, sealingBytes) = try Self.key()
        let keys = SecretEncryptionKeys(sealing: sealing, openingOnly: [])
        let now = harness.clock.now()
        let outcome = try await PasswordVerifierSealing.run(store: harness.store, keys: keys, now: now)
        #expect(outcome == PasswordVerifierSealing.Outcome(sealed: 1, unopenable: []))
        let after = try await Self.stored(harness)
        #expect(SecretEncryption.sealer(of: after.verifier) == sealing.fingerprint)
        let opened = try keys.verifier(after.verifier, boundTo: .user(after.userID), width: harness.srp.width)
        #expect(opened.drop { $0 == 0 } == before.verifier.drop { $0 == 0 })
        #expect(try await PasswordVerifierSealing.run(store: harness.store, keys: keys, now: now).sealed == 0)
        let sealedEvents = try await harness.events().filter { $0.kind == "password_verifier_sealed" }
        #expect(sealedEvents.count == 1)
        #expect(sealedEvents.first?.userID == before.userID)
        #expect(Self.detail(sealedEvents.first).contains(#""previously":"unencrypted""#))
        #expect(Self.detail(sealedEvents.first).contains(sealing.fingerprintText))
        // The server still logs the user in once it opens with that key, and refuses without it.
        let reopened = try SRPHarness(
            [SecretEncryptionTests.variable: try SecretEncryptionTests.keyFile(bytes: sealingBytes)],
            store: harness.passkeys.context.backingStore)
        let (response, _) = try await reopened.logIn(identity: Self.identity, password: Self.password)
        #expect(response.status == 200, "\(response.bodyText)")
    }

    @Test("rotation: sealed under a key that only opens, resealed under the new one; under an unknown key, left")
    func rotation() async throws {
        let (old, oldBytes) = try Self.key()
        let (new, _) = try Self.key()
        let (harness, _) = try await SRPSecretAtRestTests.enrolled([
            SecretEncryptionTests.variable: try SecretEncryptionTests.keyFile(bytes: oldBytes)
        ])
        let before = try await Self.stored(harness)
        #expect(SecretEncryption.sealer(of: before.verifier) == old.fingerprint)
        let now = harness.clock.now()
        let stranger = SecretEncryptionKeys(sealing: new, openingOnly: [])
        let refused = try await PasswordVerifierSealing.run(store: harness.store, keys: stranger, now: now)
        #expect(refused == PasswordVerifierSealing.Outcome(sealed: 0, unopenable: [before.userID]))
        #expect(try await Self.stored(harness) == before)
        let rotating = SecretEncryptionKeys(sealing: new, openingOnly: [old])
        #expect(try await PasswordVerifierSealing.run(store: harness.store, keys: rotating, now: now).sealed == 1)
        let after = try await Self.stored(harness)
        #expect(SecretEncryption.sealer(of: after.verifier) == new.fingerprint)
        #expect(
            try rotating.verifier(after.verifier, boundTo: .user(after.userID), width: harness.srp.width)
                == (try rotating.verifier(before.verifier, boundTo: .user(before.userID), width: harness.srp.width)))
        let event = try #require(try await harness.events().last { $0.kind == "password_verifier_sealed" })
        #expect(Self.detail(event).contains(#""previously":"\#(old.fingerprintText)""#))
    }
}
