import Crypto
import Foundation
import HTTP
import JSON
import Storage
import StorageSQLite
import TestSupport
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("Password and recovery throttles: expiring locks, attempts judged and counted at once, networks (router level)")
struct FallbackThrottleTests {
    static let identity = "alice@example.com"
    static let password = "correct horse battery staple"
    static let identityKey = FallbackCounterKey.identity(realm: "main", identity: identity)
    static let recoveryKey = FallbackCounterKey.recoveryIdentifier(realm: "main", identifier: identity)

    /// A store of `driver` ("memory" or "sqlite", in a directory removed by `cleanup`).
    static func store(_ driver: String) async throws -> (store: any Store, cleanup: @Sendable () -> Void) {
        guard driver == "sqlite" else { return (MemoryStore(), {}) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("passkeyd-throttle-\(UUID())")
            .path
        let store = try await SQLiteStore.open(SQLiteConfiguration(directory: directory, readerCount: 2))
        return (store, { try? FileManager.default.removeItem(atPath: directory) })
    }

    /// A harness (SRP and recovery on one application) with Alice signed up, her password enrolled and her recovery
    /// codes generated; returns them with her passkey and codes.
    static func alice(_ extra: [String: String] = [:], store: any Store = MemoryStore()) async throws -> (
        srp: SRPHarness, recovery: RecoveryHarness, passkey: Passkey, codes: [String]
    ) {
        let (srp, recovery) = try RecoveryHarness.withSRP(extra, store: store)
        var passkey = Passkey()
        let tokens = try await srp.signUp(&passkey, email: identity)
        let access = try #require(tokens["access_token"]?.stringValue)
        try await srp.enrol(identity: identity, password: password, accessToken: access)
        return (srp, recovery, passkey, try await recovery.codes(accessToken: access))
    }

    /// An open SRP session for `identity` (expects 200).
    static func srpSession(_ harness: SRPHarness, identity: String = identity, client: TestClient? = nil)
        async throws -> String
    {
        let publicA = Base64URL.encode(try harness.srp.clientPublic(secret: try SecureRandom.bytes(count: 32)))
        let response = await (client ?? harness.passkeys.client).post(
            "/srp/challenge", json: ["client_id": "app", "identity": .string(identity), "A": .string(publicA)])
        try #require(response.status == 200, "challenge: \(response.status) \(response.bodyText)")
        return try #require(try response.jsonValue()["auth_session"]?.stringValue)
    }

    /// A wrong M1 for `session`.
    static func guess(_ harness: SRPHarness, session: String, client: TestClient? = nil) async -> Response {
        await (client ?? harness.passkeys.client).post(
            "/oauth/token",
            json: [
                "grant_type": .string(SRPHarness.grant), "client_id": "app", "auth_session": .string(session),
                "M1": .string(Base64URL.encode([UInt8](repeating: 7, count: 32))),
            ])
    }

    static func counter(_ store: any Store, _ key: String) async throws -> FallbackCounter? {
        try await store.read { try $0.fallbackCounter(key: key) }
    }

    // MARK: locks that expire

    @Test(
        "a password lock lasts srp.lock_seconds after the last failure (403, Retry-After); then one attempt is judged")
    func passwordLockExpires() async throws {
        let (harness, _, _, _) = try await Self.alice([
            "PASSKEYD_SRP_MAX_FAILURES": "3", "PASSKEYD_SRP_DELAY_AFTER_FAILURES": "3",
        ])
        for _ in 1...3 { #expect(await Self.guess(harness, session: try await Self.srpSession(harness)).status == 403) }
        let publicA = Base64URL.encode(try harness.srp.clientPublic(secret: [1]))
        let locked = await harness.challenge(identity: Self.identity, clientPublic: publicA)
        #expect(locked.status == 403)
        #expect(locked.errorCode == "password_locked")
        #expect(locked.headers["Retry-After"] == "3600")
        harness.clock.advance(3_599)
        #expect(await harness.challenge(identity: Self.identity, clientPublic: publicA).headers["Retry-After"] == "1")
        // Cooled down: one more guess is judged, and its failure locks the identity again for the whole period.
        harness.clock.advance(1)
        #expect(await Self.guess(harness, session: try await Self.srpSession(harness)).errorCode == "invalid_grant")
        let again = await harness.challenge(identity: Self.identity, clientPublic: publicA)
        #expect(again.errorCode == "password_locked")
        #expect(again.headers["Retry-After"] == "3600")
        let locks = try await harness.events().filter { $0.kind == "srp_locked" }.map(\.attempts)
        #expect(locks == [3, 4])
        // After the next period the right password logs in and resets the count.
        harness.clock.advance(3_600)
        #expect(try await harness.logIn(identity: Self.identity, password: Self.password).response.status == 200)
        #expect(try await Self.counter(harness.store, Self.identityKey) == nil)
    }

    @Test("a recovery lock expires the same way (403 recovery_locked with Retry-After, then a code is judged)")
    func recoveryLockExpires() async throws {
        let (_, harness, _, codes) = try await Self.alice()
        // Opened before the lock: the grant judges again, and refuses even a right code.
        let early = try await harness.session(identifier: Self.identity)
        for _ in 1...5 {
            #expect(try await harness.recover(identifier: Self.identity, code: "0000-0000-0000").status == 403)
        }
        let locked = await harness.redeem(session: early, code: codes[0])
        #expect(locked.errorCode == "recovery_locked")
        #expect(locked.headers["Retry-After"] == "3600")
        let challenge = await harness.challenge(identifier: Self.identity)
        #expect(challenge.errorCode == "recovery_locked")
        harness.clock.advance(3_600)
        let recovered = try await harness.recover(identifier: Self.identity, code: codes[0])
        #expect(recovered.status == 200, "\(recovered.bodyText)")
        #expect(try await Self.counter(harness.store, Self.recoveryKey) == nil)
    }

    @Test("an identity's failures are forgotten a day after the last one: the next failure counts from one")
    func identityMemory() async throws {
        let (harness, _, _, _) = try await Self.alice([
            "PASSKEYD_SRP_MAX_FAILURES": "3", "PASSKEYD_SRP_DELAY_AFTER_FAILURES": "3",
        ])
        for _ in 1...2 { #expect(await Self.guess(harness, session: try await Self.srpSession(harness)).status == 403) }
        harness.clock.advance(SRPThrottle.identityMemory + 1)
        #expect(await Self.guess(harness, session: try await Self.srpSession(harness)).status == 403)
        #expect(try await Self.counter(harness.store, Self.identityKey)?.count == 1)
        #expect(try await harness.logIn(identity: Self.identity, password: Self.password).response.status == 200)
    }

    @Test("a passkey login lifts both the password lock and the recovery lock of the user")
    func passkeyLoginLiftsBoth() async throws {
        let alice = try await Self.alice([
            "PASSKEYD_SRP_MAX_FAILURES": "3", "PASSKEYD_SRP_DELAY_AFTER_FAILURES": "3",
        ])
        let (srp, recovery, codes) = (alice.srp, alice.recovery, alice.codes)
        var passkey = alice.passkey
        for _ in 1...3 {
            #expect(await Self.guess(srp, session: try await Self.srpSession(srp)).status == 403)
            #expect(try await recovery.recover(identifier: Self.identity, code: "0000-0000-0000").status == 403)
        }
        let publicA = Base64URL.encode(try srp.srp.clientPublic(secret: [1]))
        #expect(await srp.challenge(identity: Self.identity, clientPublic: publicA).errorCode == "password_locked")
        #expect(await recovery.challenge(identifier: Self.identity).errorCode == "recovery_locked")
        #expect(try await srp.passkeys.logIn(&passkey).status == 200)
        #expect(try await Self.counter(srp.store, Self.identityKey) == nil)
        #expect(try await Self.counter(srp.store, Self.recoveryKey) == nil)
        #expect(try await srp.logIn(identity: Self.identity, password: Self.password).response.status == 200)
        #expect(try await recovery.recover(identifier: Self.identity, code: codes[0]).status == 200)
    }

    // MARK: attempts sent at once

    @Test(
        "20 wrong passwords sent at once: only delay_after_failures are judged, the rest refused",
        arguments: ["memory", "sqlite"])
    func concurrentGuesses(driver: String) async throws {
        let (store, cleanup) = try await Self.store(driver)
        defer { cleanup() }
        let (harness, _, _, _) = try await Self.alice(store: store)
        var sessions: [String] = []
        for _ in 0..<20 { sessions.append(try await Self.srpSession(harness)) }
        let answers = await withTaskGroup(of: String.self) { group in
            for session in sessions {
                group.addTask { await Self.guess(harness, session: session).errorCode ?? "none" }
            }
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(answers.filter { $0 == "invalid_grant" }.count == 5, "\(answers)")
        #expect(answers.filter { $0 == "too_many_requests" }.count == 15, "\(answers)")
        #expect(try await Self.counter(store, Self.identityKey)?.count == 5)
        let judged = try await harness.events().filter {
            $0.kind == "srp_login_attempt" && $0.reasonCode == "bad_proof"
        }
        #expect(judged.compactMap(\.attempts).sorted() == [1, 2, 3, 4, 5])
        await store.close()
    }

    @Test(
        "20 wrong recovery codes sent at once: only 5 are judged, the rest find the identifier locked",
        arguments: ["memory", "sqlite"])
    func concurrentRecoveryCodes(driver: String) async throws {
        let (store, cleanup) = try await Self.store(driver)
        defer { cleanup() }
        let (_, harness, _, _) = try await Self.alice(store: store)
        var sessions: [String] = []
        for _ in 0..<20 { sessions.append(try await harness.session(identifier: Self.identity)) }
        let answers = await withTaskGroup(of: String.self) { group in
            for session in sessions {
                group.addTask { await harness.redeem(session: session, code: "0000-0000-0000").errorCode ?? "none" }
            }
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(answers.filter { $0 == "invalid_grant" }.count == 5, "\(answers)")
        #expect(answers.filter { $0 == "recovery_locked" }.count == 15, "\(answers)")
        #expect(try await Self.counter(store, Self.recoveryKey)?.count == 5)
        await store.close()
    }

    // MARK: networks

    @Test("a network counts as one (IPv6 /64): guesses spread over its addresses and identities delay it")
    func perNetwork() async throws {
        let (harness, _, _, _) = try await Self.alice(["PASSKEYD_SRP_ADDRESS_DELAY_AFTER_FAILURES": "3"])
        let client = { (address: String) in
            TestClient(responder: Application(context: harness.passkeys.context), remoteAddress: address)
        }
        for index in 1...3 {
            let host = client("2001:db8:0:1::\(index)")
            let session = try await Self.srpSession(harness, identity: "user\(index)@example.com", client: host)
            #expect(await Self.guess(harness, session: session, client: host).errorCode == "invalid_grant")
        }
        let publicA = Base64URL.encode(try harness.srp.clientPublic(secret: [1]))
        let body: JSONValue = ["client_id": "app", "identity": .string(Self.identity), "A": .string(publicA)]
        let sameNetwork = await client("2001:db8:0:1::99").post("/srp/challenge", json: body)
        #expect(sameNetwork.status == 429)
        #expect(sameNetwork.headers["Retry-After"] == "1")
        #expect(await client("2001:db8:0:2::1").post("/srp/challenge", json: body).status == 200)
        #expect(
            try await Self.counter(harness.store, FallbackCounterKey.address(network: "2001:db8:0:1::/64"))?.count == 3)
    }

    @Test("one client behind a shared address delays its identity, not the others behind it, below the network's limit")
    func sharedAddress() async throws {
        let (harness, _, _, _) = try await Self.alice()
        let shared = TestClient(responder: Application(context: harness.passkeys.context), remoteAddress: "203.0.113.7")
        for _ in 1...5 {
            let session = try await Self.srpSession(harness, identity: "mallory@example.com", client: shared)
            #expect(await Self.guess(harness, session: session, client: shared).errorCode == "invalid_grant")
        }
        let publicA = Base64URL.encode(try harness.srp.clientPublic(secret: [1]))
        let mallory = await shared.post(
            "/srp/challenge", json: ["client_id": "app", "identity": "mallory@example.com", "A": .string(publicA)])
        #expect(mallory.status == 429)
        // Alice, behind the same address (and the same /24), logs in: the network has 5 failures, below its 20.
        let neighbour = TestClient(
            responder: Application(context: harness.passkeys.context), remoteAddress: "203.0.113.7")
        let alice = await neighbour.post(
            "/srp/challenge", json: ["client_id": "app", "identity": .string(Self.identity), "A": .string(publicA)])
        #expect(alice.status == 200, "\(alice.bodyText)")
    }

    @Test("a successful login takes its attempt back from the network's count")
    func successTakesBack() async throws {
        let (harness, _, _, _) = try await Self.alice(["PASSKEYD_SRP_ADDRESS_DELAY_AFTER_FAILURES": "2"])
        for _ in 1...3 {
            #expect(try await harness.logIn(identity: Self.identity, password: Self.password).response.status == 200)
        }
        #expect(try await Self.counter(harness.store, FallbackCounterKey.address(network: "127.0.0.0/24")) == nil)
        #expect(try await Self.counter(harness.store, Self.identityKey) == nil)
    }

    // MARK: housekeeping

    @Test("housekeeping purges the counters no rule reads any more, and only those")
    func purge() async throws {
        let harness = try PasskeyHarness()
        let now = harness.clock.now()
        let old: [String: TimeInterval] = [
            FallbackCounterKey.identity(realm: "main", identity: "old"): SRPThrottle.identityMemory + 1,
            FallbackCounterKey.recoveryIdentifier(realm: "main", identifier: "old"): SRPThrottle.identityMemory + 1,
            FallbackCounterKey.address(network: "192.0.2.0/24"): 3_601,
            FallbackCounterKey.recoveryAddress(network: "192.0.2.0/24"): 3_601,
        ]
        let live: [String: TimeInterval] = [
            FallbackCounterKey.identity(realm: "main", identity: "new"): SRPThrottle.identityMemory - 1,
            FallbackCounterKey.recoveryIdentifier(realm: "main", identifier: "new"): SRPThrottle.identityMemory - 1,
            FallbackCounterKey.address(network: "198.51.100.0/24"): 3_599,
            FallbackCounterKey.recoveryAddress(network: "198.51.100.0/24"): 3_599,
            FallbackCounterKey.biometric(keyID: "key-1"): 10 * 86_400,
        ]
        try await harness.context.store.write { writer in
            for (key, age) in old.merging(live, uniquingKeysWith: { first, _ in first }) {
                _ = try writer.incrementFallbackCounter(
                    key: key, now: now.addingTimeInterval(-age), restartingBefore: nil)
            }
        }
        await Housekeeping.purge(context: harness.context)
        let left = try await harness.context.store.read { reader in
            try Set((Array(old.keys) + Array(live.keys)).filter { try reader.fallbackCounter(key: $0) != nil })
        }
        #expect(left == Set(live.keys))
    }
}
