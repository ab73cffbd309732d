import Crypto
import Foundation
import HTTP
import JSON
import Storage
import TestSupport
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("Password fallback: SRP-6a enrolment and login (router level)")
struct PasswordFallbackLoginTests {
    static let identity = "alice@example.com"
    static let password = "correct horse battery staple"

    /// A harness (with `extra` settings, over `store`) with a signed-up, enrolled user; returns it with the sign-up's
    /// token response.
    static func enrolled(_ extra: [String: String] = [:], store: any Store = MemoryStore()) async throws -> (
        SRPHarness, JSONValue
    ) {
        let harness = try SRPHarness(extra, store: store)
        var passkey = Passkey()
        let tokens = try await harness.signUp(&passkey)
        try await harness.enrol(
            identity: identity, password: password, accessToken: try #require(tokens["access_token"]?.stringValue))
        return (harness, tokens)
    }

    @Test("enrol, then log in in two steps: tokens with amr [\"pwd\"] and auth_time, and the M2 the client expects")
    func login() async throws {
        let (harness, _) = try await Self.enrolled()
        let stored = try #require(
            try await harness.store.read { try $0.passwordVerifier(realm: "main", identity: Self.identity) })
        #expect(stored.salt == Array(1...16))
        let (response, expectedM2) = try await harness.logIn(identity: Self.identity, password: Self.password)
        #expect(response.status == 200, "\(response.bodyText)")
        let body = try response.jsonValue()
        #expect(Base64URL.decode(try #require(body["M2"]?.stringValue)) == expectedM2)
        #expect(body["refresh_token"]?.stringValue != nil)
        let claims = try SRPHarness.claims(try #require(body["access_token"]?.stringValue))
        #expect(claims["amr"] == ["pwd"])
        #expect(claims["auth_time"]?.intValue == Int(harness.clock.now().timeIntervalSince1970))
        #expect(claims["sub"]?.stringValue == stored.userID)
        let events = try await harness.events()
        #expect(events.contains { $0.kind == "PASSWORD_AUTH_FALLBACK" && $0.userID == stored.userID })
        #expect(events.contains { $0.kind == "password_verifier_stored" && $0.reasonCode == "enrolled" })
    }

    @Test("a wrong password is 403 invalid_grant, counted, and its session is spent")
    func wrongPassword() async throws {
        let (harness, _) = try await Self.enrolled()
        let a = try SecureRandom.bytes(count: 32)
        let publicA = Base64URL.encode(try harness.srp.clientPublic(secret: a))
        let challenge = try await harness.challenge(identity: Self.identity, clientPublic: publicA).jsonValue()
        let session = try #require(challenge["auth_session"]?.stringValue)
        let wrong = await harness.token(session: session, proof: Base64URL.encode([UInt8](repeating: 7, count: 32)))
        #expect(wrong.status == 403)
        #expect(try wrong.jsonValue()["error"] == "invalid_grant")
        let again = await harness.token(session: session, proof: Base64URL.encode([UInt8](repeating: 7, count: 32)))
        #expect(again.status == 403)
        let failure = try #require(try await harness.events().last { $0.kind == "srp_login_attempt" })
        #expect(failure.outcome == "failure")
        #expect(failure.attempts == 1)
        // The append-only log never holds the identity as typed (an email here), only a keyed reference, the same
        // for every attempt on it (issue #21: a deleted account leaves pseudonymous entries).
        let attempts = try await harness.events().filter { $0.kind.hasPrefix("srp_") || $0.kind.hasPrefix("PASSWORD") }
        let details = attempts.compactMap { $0.detail.map { String(decoding: $0, as: UTF8.self) } }
        #expect(!details.isEmpty)
        #expect(details.allSatisfy { !$0.contains(Self.identity) })
        let references = Set(
            try details.map { try #require(try JSONValue(parsing: Array($0.utf8))["identity_ref"]?.stringValue) })
        #expect(references.count == 1)
        // The correct password afterwards still works, and resets the count.
        #expect(try await harness.logIn(identity: Self.identity, password: Self.password).response.status == 200)
        #expect(
            try await harness.store.read { try $0.fallbackCounter(key: "srp_identity:4:main:\(Self.identity)") } == nil)
    }

    @Test("an unknown identity gets the same shape: a stable 16-byte salt, a fresh B; its login is refused")
    func unknownIdentity() async throws {
        let (harness, _) = try await Self.enrolled()
        let publicA = Base64URL.encode(try harness.srp.clientPublic(secret: try SecureRandom.bytes(count: 32)))
        let known = try await harness.challenge(identity: Self.identity, clientPublic: publicA).jsonValue()
        let first = await harness.challenge(identity: "nobody@example.com", clientPublic: publicA)
        let second = try await harness.challenge(identity: "nobody@example.com", clientPublic: publicA).jsonValue()
        #expect(first.status == 200)
        let unknown = try first.jsonValue()
        #expect(unknown.objectMembers?.map(\.key) == known.objectMembers?.map(\.key))
        #expect(Base64URL.decode(try #require(unknown["salt"]?.stringValue))?.count == 16)
        #expect(unknown["salt"] == second["salt"])
        #expect(unknown["B"] != second["B"])
        let publicB = try #require(Base64URL.decode(unknown["B"]?.stringValue ?? ""))
        try harness.srp.checkClientPublic(publicB)  // a group element like any B
        let refused = await harness.token(
            session: try #require(unknown["auth_session"]?.stringValue),
            proof: Base64URL.encode([UInt8](repeating: 1, count: 32)))
        #expect(refused.status == 403)
        // Another realm (or a new secret) would give another salt: the salt depends on the identity.
        let other = try await harness.challenge(identity: "someone@example.com", clientPublic: publicA).jsonValue()
        #expect(other["salt"] != unknown["salt"])
    }

    @Test("wrong inputs are 400 invalid_request: A = 0, A = N, garbage; verifier = 0; short salt; M1 length")
    func wrongInputs() async throws {
        let (harness, tokens) = try await Self.enrolled()
        let n = harness.srp.group.prime
        for publicA in [Base64URL.encode([0]), Base64URL.encode(n), Base64URL.encode([1] + n), "!!", ""] {
            let response = await harness.challenge(identity: Self.identity, clientPublic: publicA)
            #expect(response.status == 400, "A \(publicA.prefix(8)): \(response.bodyText)")
            #expect(try response.jsonValue()["error"] == "invalid_request")
        }
        let accessToken = try #require(tokens["access_token"]?.stringValue)
        let salt = Base64URL.encode(Array(1...16))
        let verifier = Base64URL.encode(try harness.verifier(identity: Self.identity, password: "x"))
        let bodies: [JSONValue] = [
            ["identity": .string(Self.identity), "salt": .string(salt), "verifier": .string(Base64URL.encode([0]))],
            ["identity": .string(Self.identity), "salt": .string(salt), "verifier": .string(Base64URL.encode(n))],
            [
                "identity": .string(Self.identity), "salt": .string(Base64URL.encode(Array(1...15))),
                "verifier": .string(verifier),
            ],
            ["identity": .string(Self.identity), "salt": "*", "verifier": .string(verifier)],
            ["identity": "someone@example.com", "salt": .string(salt), "verifier": .string(verifier)],
            ["identity": .string(Self.identity), "salt": .string(salt)],
        ]
        for body in bodies {
            let response = await harness.enrol(body, accessToken: accessToken)
            #expect(response.status == 400, "\(body): \(response.bodyText)")
            #expect(try response.jsonValue()["error"] == "invalid_request")
        }
        let publicA = Base64URL.encode(try harness.srp.clientPublic(secret: try SecureRandom.bytes(count: 32)))
        let session = try #require(
            try await harness.challenge(identity: Self.identity, clientPublic: publicA).jsonValue()["auth_session"]?
                .stringValue)
        for proof in [
            Base64URL.encode([UInt8](repeating: 1, count: 31)), Base64URL.encode([UInt8](repeating: 1, count: 33)),
            "%%",
        ] {
            let response = await harness.token(session: session, proof: proof)
            #expect(response.status == 400, "M1 \(proof): \(response.bodyText)")
        }
    }

    @Test("a salt of any length but 16 bytes is 400 invalid_request: stand-in salts are 16, another length would tell")
    func saltLength() async throws {
        let (harness, tokens) = try await Self.enrolled()
        let accessToken = try #require(tokens["access_token"]?.stringValue)
        for length in [15, 17, 32, 64] {
            let salt = [UInt8](repeating: 9, count: length)
            let response = await harness.enrol(
                [
                    "identity": .string(Self.identity), "salt": .string(Base64URL.encode(salt)),
                    "verifier": .string(
                        Base64URL.encode(try harness.verifier(identity: Self.identity, password: "pw", salt: salt))),
                ], accessToken: accessToken)
            #expect(response.status == 400, "\(length) bytes: \(response.bodyText)")
            #expect(try response.jsonValue()["error_description"] == "Invalid salt: must be 16 bytes.")
        }
        // The enrolled 16-byte salt is the one stored still.
        let stored = try await harness.store.read { try $0.passwordVerifier(realm: "main", identity: Self.identity) }
        #expect(stored?.salt == Array(1...16))
    }

    @Test("enrolment needs a fresh user-verified login: a refreshed token or a login 10 minutes old is refused")
    func enrolmentFreshness() async throws {
        let harness = try SRPHarness()
        var passkey = Passkey()
        let tokens = try await harness.signUp(&passkey)
        let body: JSONValue = [
            "identity": .string(Self.identity), "salt": .string(Base64URL.encode(Array(1...16))),
            "verifier": .string(Base64URL.encode(try harness.verifier(identity: Self.identity, password: "pw"))),
        ]
        let refreshed = try await harness.passkeys.refresh(try #require(tokens["refresh_token"]?.stringValue))
            .jsonValue()
        let refusedRefreshed = await harness.enrol(
            body, accessToken: try #require(refreshed["access_token"]?.stringValue))
        #expect(refusedRefreshed.status == 401)
        #expect(try refusedRefreshed.jsonValue()["error"] == "insufficient_user_authentication")
        harness.clock.advance(600)
        let stale = await harness.enrol(body, accessToken: try #require(tokens["access_token"]?.stringValue))
        #expect(stale.status == 401)
        // A password login does not let the verifier be replaced either.
        let fresh = try await harness.passkeys.logIn(
            &passkey, audience: harness.passkeys.context.tokens.accountAudience
        ).jsonValue()
        #expect(await harness.enrol(body, accessToken: try #require(fresh["access_token"]?.stringValue)).status == 204)
        let srpTokens = try await harness.logIn(identity: Self.identity, password: "pw").response.jsonValue()
        let replaced = await harness.enrol(body, accessToken: try #require(srpTokens["access_token"]?.stringValue))
        #expect(replaced.status == 401)
    }

    @Test("failures delay after 5 (429 Retry-After) and lock at srp.max_failures; a passkey login lifts the lock")
    func delayAndLock() async throws {
        let harness = try SRPHarness(["PASSKEYD_SRP_MAX_FAILURES": "7"])
        var passkey = Passkey()
        let tokens = try await harness.signUp(&passkey)
        try await harness.enrol(
            identity: Self.identity, password: Self.password,
            accessToken: try #require(tokens["access_token"]?.stringValue))
        for attempt in 1...7 {
            let response = try await harness.logIn(identity: Self.identity, password: "guess \(attempt)").response
            #expect(response.status == 403, "attempt \(attempt)")
            if attempt >= 5 && attempt < 7 {
                // The next attempt right away waits 2^(n-5) seconds.
                let publicA = Base64URL.encode(try harness.srp.clientPublic(secret: [1]))
                let delayed = await harness.challenge(identity: Self.identity, clientPublic: publicA)
                #expect(delayed.status == 429, "after \(attempt)")
                #expect(delayed.headers["Retry-After"] == String(1 << (attempt - 5)))
                harness.clock.advance(TimeInterval(1 << (attempt - 5)))
            }
        }
        let publicA = Base64URL.encode(try harness.srp.clientPublic(secret: [1]))
        // Locked for srp.lock_seconds (an hour) after the last failure (FallbackThrottleTests: what comes after).
        harness.clock.advance(3_599)
        let locked = await harness.challenge(identity: Self.identity, clientPublic: publicA)
        #expect(locked.status == 403)
        #expect(try locked.jsonValue()["error"] == "password_locked")
        // Even the right password, while locked.
        let right = await harness.challenge(identity: Self.identity, clientPublic: publicA)
        #expect(right.status == 403)
        #expect(try await harness.events().contains { $0.kind == "srp_locked" && $0.attempts == 7 })
        _ = try await harness.passkeys.logIn(&passkey)
        #expect(try await harness.logIn(identity: Self.identity, password: Self.password).response.status == 200)
    }

    @Test("the SRP session is stored: a second server on the same store finishes a login the first one started")
    func sharedSession() async throws {
        let store = MemoryStore()
        let first = try SRPHarness(store: store)
        var passkey = Passkey()
        let tokens = try await first.signUp(&passkey)
        try await first.enrol(
            identity: Self.identity, password: Self.password,
            accessToken: try #require(tokens["access_token"]?.stringValue))
        let second = try SRPHarness(store: store)
        let a = try SecureRandom.bytes(count: 32)
        let publicA = try first.srp.clientPublic(secret: a)
        let body = try await first.challenge(identity: Self.identity, clientPublic: Base64URL.encode(publicA))
            .jsonValue()
        let salt = try #require(Base64URL.decode(body["salt"]?.stringValue ?? ""))
        let publicB = try #require(Base64URL.decode(body["B"]?.stringValue ?? ""))
        let x = first.srp.privateKey(identity: Self.identity, password: Self.password, salt: salt)
        let key = first.srp.sessionKey(
            premasterSecret: try first.srp.clientPremasterSecret(
                serverPublic: publicB, privateKey: x, clientSecret: a, clientPublic: publicA))
        let proof = first.srp.clientProof(
            identity: Self.identity, salt: salt, clientPublic: publicA, serverPublic: publicB, sessionKey: key)
        let response = await second.token(
            session: try #require(body["auth_session"]?.stringValue), proof: Base64URL.encode(proof))
        #expect(response.status == 200)
        // And both nodes give an unknown identity the same salt (the secret lives in the store).
        let unknownA = Base64URL.encode(publicA)
        let one = try await first.challenge(identity: "x@example.com", clientPublic: unknownA).jsonValue()["salt"]
        let two = try await second.challenge(identity: "x@example.com", clientPublic: unknownA).jsonValue()["salt"]
        #expect(one == two)
    }
}
