import Crypto
import Foundation
import JSON
import SoftwareClient
import Storage
import Synchronization
import TestSupport
import Testing

@testable import Endpoints
@testable import Service

/// Issue 35: `/passkey/challenge` and `/passkey/register` store nothing; the webauthn grant opens the sealed
/// session and spends it in the write that completes or refuses the ceremony.
@Suite("POST /oauth/token, webauthn grant: sealed auth sessions, spent in the login's one write")
struct SealedAuthSessionGrantTests {
    /// The store's security events, oldest first.
    static func events(_ harness: PasskeyHarness) async throws -> [SecurityEvent] {
        try await harness.context.store.read { try $0.securityEvents(after: 0, limit: 1_000) }
    }

    @Test("a challenge and a register write nothing; a login is one read and one write")
    func challengesWriteNothing() async throws {
        let store = CountingStore()
        let harness = try PasskeyHarness(store: store)
        var authenticator = Passkey()
        _ = try await harness.signUp(&authenticator)
        let before = store.writes.load(ordering: .relaxed)
        #expect(await harness.loginChallenge().status == 200)
        #expect(await harness.registerChallenge(email: "other@example.com").status == 200)
        #expect(store.writes.load(ordering: .relaxed) == before, "a challenge wrote")
        let (options, session) = try await harness.loginOptions()
        let (reads, writes) = (store.reads.load(ordering: .relaxed), store.writes.load(ordering: .relaxed))
        #expect(await harness.token(session: session, response: try authenticator.assert(options)).status == 200)
        #expect(store.writes.load(ordering: .relaxed) - writes == 1, "the login's writes")
        #expect(store.reads.load(ordering: .relaxed) - reads == 1, "the login's reads")
    }

    @Test("a tampered value, a pre-upgrade handle or another server's session: invalid_grant as an unknown session")
    func unopenable() async throws {
        let harness = try PasskeyHarness()
        var authenticator = Passkey()
        _ = try await harness.signUp(&authenticator)
        let (options, session) = try await harness.loginOptions()
        let assertion = try authenticator.assert(options)
        var bytes = try #require(Base64URL.decode(session))
        bytes[bytes.count / 2] ^= 0x01
        let foreign = try AuthSessionSealer(secret: try SecureRandom.bytes(count: 32)).seal(
            try #require(try harness.context.authSessionKey.sealer().open(session)))
        let presented = [
            Base64URL.encode(bytes), Base64URL.encode(try SecureRandom.bytes(count: 32)), String(session.dropLast(3)),
            foreign, "not a session", String(repeating: "A", count: AuthSessionSealer.maximumValueLength + 1),
        ]
        for (index, value) in presented.enumerated() {
            let eventsBefore = try await Self.events(harness).count
            let response = await harness.token(session: value, response: assertion)
            #expect(response.status == 403, "\(index): \(response.bodyText)")
            #expect(response.errorCode == "invalid_grant")
            #expect(try response.jsonValue()["error_description"]?.stringValue == "Invalid or expired auth_session.")
            let events = try await Self.events(harness)
            #expect(events.count == eventsBefore + 1, "\(index): one refusal recorded")
            #expect(events.last?.knownKind == .login && events.last?.reasonCode == "session_unknown", "\(index)")
        }
        // None of them spent the genuine session.
        #expect(await harness.token(session: session, response: assertion).status == 200)
    }

    @Test("an expired sealed session is an unknown session, and spends nothing")
    func expired() async throws {
        let harness = try PasskeyHarness()
        var authenticator = Passkey()
        _ = try await harness.signUp(&authenticator)
        let (options, session) = try await harness.loginOptions()
        let opened = try #require(try harness.context.authSessionKey.sealer().open(session))
        harness.clock.advance(60 + 30)
        let response = await harness.token(session: session, response: try authenticator.assert(options))
        #expect(response.status == 403)
        #expect(harness.counted("invalid_grant:session_unknown"))
        #expect(try await Self.events(harness).last?.reasonCode == "session_unknown")
        #expect(!(try await harness.context.store.read { try $0.isAuthSessionSpent(id: opened.id) }))
    }

    @Test("a replay after a success and a replay after a refusal: refused as an unknown session, recorded")
    func replays() async throws {
        let harness = try PasskeyHarness()
        var authenticator = Passkey()
        _ = try await harness.signUp(&authenticator)
        // After a success.
        let (options, session) = try await harness.loginOptions()
        let assertion = try authenticator.assert(options)
        #expect(await harness.token(session: session, response: assertion).status == 200)
        let id = try #require(try harness.context.authSessionKey.sealer().open(session)).id
        #expect(try await harness.context.store.read { try $0.isAuthSessionSpent(id: id) })
        for response in [assertion, try authenticator.assert(options)] {
            let replayed = await harness.token(session: session, response: response)
            #expect(replayed.status == 403)
            #expect(try replayed.jsonValue()["error_description"]?.stringValue == "Invalid or expired auth_session.")
            #expect(try await Self.events(harness).last?.reasonCode == "session_unknown")
        }
        // After a refusal (a signature that does not verify), even with a good assertion.
        let (again, refusedSession) = try await harness.loginOptions()
        let bad = try authenticator.assert(again, CeremonyTampering(corruptsSignature: true))
        #expect(await harness.token(session: refusedSession, response: bad).status == 403)
        #expect(try await Self.events(harness).last?.reasonCode == "bad_signature", "refused for its signature")
        let good = await harness.token(session: refusedSession, response: try authenticator.assert(again))
        #expect(good.status == 403)
        #expect(try await Self.events(harness).last?.reasonCode == "session_unknown")
        // A sign-up session, replayed after it signed up.
        var second = Passkey()
        let challenge = try await harness.registerChallenge(email: "second@example.com").jsonValue()
        let registration = try second.register(try #require(challenge["authn_params_public_key"]))
        let signupSession = try #require(challenge["auth_session"]?.stringValue)
        #expect(await harness.token(session: signupSession, response: registration).status == 200)
        let replayedSignup = await harness.token(session: signupSession, response: registration)
        #expect(replayedSignup.status == 403)
        #expect(try replayedSignup.jsonValue()["error_description"]?.stringValue == "Invalid or expired auth_session.")
    }
}

/// A memory store that counts the reads and writes begun.
final class CountingStore: Store {
    let base = MemoryStore()
    let reads = Atomic<Int>(0)
    let writes = Atomic<Int>(0)

    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) throws -> T) async throws -> T {
        reads.add(1, ordering: .relaxed)
        return try await base.read(body)
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreWriter) throws -> T) async throws -> T {
        writes.add(1, ordering: .relaxed)
        return try await base.write(body)
    }

    func close() async { await base.close() }
}
