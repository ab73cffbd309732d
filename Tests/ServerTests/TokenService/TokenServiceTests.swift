import Crypto
import Foundation
import HTTP
import JSON
import Storage
import Synchronization
import TestSupport
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("Token service: signing keys and rotation")
struct TokenServiceTests {
    @Test("bootstrap generates one key of each algorithm (ES256, RS256 of 2048 bits) and later starts load them")
    func bootstrap() async throws {
        let store = MemoryStore()
        let configuration = try TestConfiguration.make()
        let first = TokenService(configuration: configuration, store: store, clock: TestClock())
        try await first.bootstrap()
        let second = TokenService(configuration: configuration, store: store, clock: TestClock())
        try await second.bootstrap()
        let keys = try await store.read { try $0.signingKeys() }
        #expect(keys.map(\.algorithm).sorted() == ["ES256", "RS256"])
        let rsa = try RSAPublicKey(derRepresentation: try #require(keys.first { $0.algorithm == "RS256" }).publicKey)
        #expect(rsa.modulusByteCount * 8 >= 2048)
        #expect(try await first.jwksBytes() == second.jwksBytes())
    }

    @Test("a store from before RS256 (an ES256 key only) gets its RSA key at the next start, the EC key kept")
    func upgrade() async throws {
        let store = MemoryStore()
        let clock = TestClock()
        let existing = try SigningKeyRing.generateKey(.es256, now: clock.now())
        try await store.write { try $0.insertSigningKey(existing) }
        try await TokenService(configuration: try TestConfiguration.make(), store: store, clock: clock).bootstrap()
        let keys = try await store.read { try $0.signingKeys() }
        #expect(keys.count == 2)
        #expect(keys.contains(existing))
        #expect(keys.contains { $0.algorithm == "RS256" })
    }

    @Test(
        "a rotated key is published at once and signs after every node has published it; the old one stays published until its tokens have expired"
    )
    func rotation() async throws {
        // The ES256 key's rotation, seen through access tokens pinned to ES256 (RS256 by default).
        let harness = try PasskeyHarness(["PASSKEYD_TOKENS_ACCESS_TOKEN_SIGNING_ALG": "ES256"])
        var authenticator = Passkey()
        let before = try await harness.signUp(&authenticator)
        let oldKeys = try await harness.context.store.read { try $0.signingKeys() }
        let oldKid = try #require(oldKeys.first { $0.algorithm == "ES256" }?.kid)
        let (newKids, signsFrom) = try await TokenService.rotateKeys(
            store: harness.context.store, now: harness.clock.now())
        // `keys rotate` rotates both algorithms: one new key of each.
        #expect(newKids.count == 2)
        let newKid = newKids[0]
        #expect(signsFrom == harness.clock.now().addingTimeInterval(TokenService.keyPublicationDelay))
        #expect(TokenService.keyPublicationDelay > TokenService.reloadInterval)
        try await harness.context.tokens.bootstrap()
        let kids = try #require(try await harness.client.get("/.well-known/jwks.json").jsonValue()["keys"]?.arrayValue)
            .compactMap { $0["kid"]?.stringValue }
        #expect(Set(kids) == Set(oldKeys.map(\.kid) + newKids))
        // Published but not signing yet: a node that has not reloaded could not verify it.
        #expect(try await signingKeyID(harness.logIn(&authenticator).jsonValue()) == oldKid)
        harness.clock.advance(TokenService.keyPublicationDelay)
        try await harness.context.tokens.bootstrap()
        let after = try await harness.logIn(&authenticator).jsonValue()
        #expect(try signingKeyID(after) == newKid)
        // A token signed by the old key still verifies.
        let old = try #require(before["access_token"]?.stringValue)
        #expect(await harness.client.get("/userinfo", headers: ["Authorization": "Bearer \(old)"]).status == 200)
        // Once every token of the old key has expired (+ reload interval and leeway), it is no longer published.
        harness.clock.advance(3600 + 61)
        let later = try #require(try await harness.client.get("/.well-known/jwks.json").jsonValue()["keys"]?.arrayValue)
        #expect(Set(later.compactMap { $0["kid"]?.stringValue }) == Set(newKids))
    }

    @Test("keys rotate --now: the new key signs at once")
    func immediateRotation() async throws {
        let harness = try PasskeyHarness(["PASSKEYD_TOKENS_ACCESS_TOKEN_SIGNING_ALG": "ES256"])
        var authenticator = Passkey()
        _ = try await harness.signUp(&authenticator)
        let (newKids, signsFrom) = try await TokenService.rotateKeys(
            store: harness.context.store, now: harness.clock.now(), immediately: true)
        let newKid = newKids[0]
        #expect(signsFrom == harness.clock.now())
        try await harness.context.tokens.bootstrap()
        #expect(try await signingKeyID(harness.logIn(&authenticator).jsonValue()) == newKid)
    }

    @Test(
        "a token signed by a key this node has not loaded yet verifies after one read of the keys, at most one a second"
    )
    func unknownKeyReloads() async throws {
        let harness = try PasskeyHarness()
        var authenticator = Passkey()
        let signedUp = try await harness.signUp(&authenticator)
        // Another node: `keys rotate --now` there, so it signs with a key this node's ring (loaded at the sign-up,
        // well within the 30 s reload interval) does not have.
        _ = try await TokenService.rotateKeys(store: harness.context.store, now: harness.clock.now(), immediately: true)
        let other = TokenService(
            configuration: harness.context.configuration, store: harness.context.store, clock: harness.clock)
        try await other.bootstrap()
        let signedUpToken = try #require(signedUp["access_token"]?.stringValue)
        let payload = try #require(Base64URL.decode(String(signedUpToken.split(separator: ".")[1])))
        let subject = try #require(try JSONValue(parsing: payload)["sub"]?.stringValue)
        let found = try await harness.context.store.read { try $0.user(id: subject) }
        let user = try #require(found)
        let client = try #require(harness.context.configuration.client(id: "app"))
        let grant = TokenService.Grant(
            user: user, clientID: "app",
            access: try other.authorization.authorize(client: client, audience: nil, scope: .default),
            authTime: harness.clock.now(), authenticationMethods: ["hwk"])
        let minted = try await other.tokenResponse(for: grant, refreshToken: nil, now: harness.clock.now())
        let token = try #require(minted["access_token"]?.stringValue)
        let userinfo = await harness.client.get("/userinfo", headers: ["Authorization": "Bearer \(token)"])
        #expect(userinfo.status == 200, "\(userinfo.bodyText)")
        // A made-up kid is refused, and within the second of that reload it makes the node read its keys no more;
        // a second later, the next one may.
        let parts = token.split(separator: ".")
        let madeUp = Base64URL.encode(Array(#"{"alg":"ES256","kid":"made-up","typ":"at+jwt"}"#.utf8))
        let forged = "\(madeUp).\(parts[1]).\(parts[2])"
        #expect(await harness.client.get("/userinfo", headers: ["Authorization": "Bearer \(forged)"]).status == 401)
        #expect(try await harness.context.tokens.ringReloadedOnDemand() == nil)
        harness.clock.advance(TokenService.onDemandReloadInterval)
        #expect(try await harness.context.tokens.ringReloadedOnDemand() != nil)
    }

    @Test(
        "the JWKS is at most a second old: a key another node signs with at once is published here within a second, and a store failure serves the cached keys"
    )
    func jwksFreshness() async throws {
        let store = SwitchableStore()
        let clock = TestClock()
        let configuration = try TestConfiguration.make()
        let node = TokenService(configuration: configuration, store: store, clock: clock)
        try await node.bootstrap()
        let before = try Self.kids(await node.jwksBytes())
        #expect(before.count == 2)
        // `keys rotate --now` through the database (another node signs with the new keys at once).
        let (newKids, _) = try await TokenService.rotateKeys(store: store, now: clock.now(), immediately: true)
        #expect(try Self.kids(await node.jwksBytes()) == before, "within the second of the last read")
        clock.advance(TokenService.onDemandReloadInterval)
        // Without the on-demand read this took `reloadInterval` (30 s).
        #expect(try Self.kids(await node.jwksBytes()) == before.union(newKids))
        // The database fails: the cached keys are served while they are younger than the reload interval.
        store.failing.store(true, ordering: .relaxed)
        clock.advance(TokenService.onDemandReloadInterval)
        let readsBefore = store.reads.load(ordering: .relaxed)
        // A flood of JWKS requests within one second, the database down: one read of the keys, not one per request.
        for _ in 0..<5 { #expect(try Self.kids(await node.jwksBytes()) == before.union(newKids)) }
        #expect(store.reads.load(ordering: .relaxed) - readsBefore == 1)
        clock.advance(TokenService.reloadInterval)
        await #expect(throws: StorageError.self) { try await node.jwksBytes() }
    }

    @Test(
        "the JWKS is answered without the store (inline) exactly when jwksBytes would read nothing: never before the keys are loaded, not when an on-demand read is due, and from the cached keys while the store fails"
    )
    func cachedJWKS() async throws {
        let store = SwitchableStore()
        let clock = TestClock()
        let node = TokenService(configuration: try TestConfiguration.make(), store: store, clock: clock)
        #expect(node.cachedJWKSBytes() == nil, "no keys loaded yet")
        try await node.bootstrap()
        let loaded = try #require(node.cachedJWKSBytes())
        #expect(try await node.jwksBytes() == loaded)
        let (newKids, _) = try await TokenService.rotateKeys(store: store, now: clock.now(), immediately: true)
        clock.advance(TokenService.onDemandReloadInterval)
        #expect(node.cachedJWKSBytes() == nil, "an on-demand read is due")
        let reloaded = try await node.jwksBytes()
        #expect(try Self.kids(reloaded).isSuperset(of: newKids))
        #expect(node.cachedJWKSBytes() == reloaded)
        // The store fails: the read that was due fails, and the cached keys are served without the store until
        // the next read is due, as jwksBytes serves them.
        store.failing.store(true, ordering: .relaxed)
        clock.advance(TokenService.onDemandReloadInterval)
        #expect(node.cachedJWKSBytes() == nil)
        #expect(try await node.jwksBytes() == reloaded)
        let readsBefore = store.reads.load(ordering: .relaxed)
        #expect(node.cachedJWKSBytes() == reloaded)
        #expect(store.reads.load(ordering: .relaxed) == readsBefore)
        clock.advance(TokenService.reloadInterval)
        #expect(node.cachedJWKSBytes() == nil, "the keys are older than the reload interval")
    }

    /// The `kid`s of a JWKS document.
    private static func kids(_ jwks: [UInt8]) throws -> Set<String> {
        let keys = try #require(try JSONValue(parsing: jwks)["keys"]?.arrayValue)
        return Set(keys.compactMap { $0["kid"]?.stringValue })
    }

    /// The `kid` of a token response's access token.
    private func signingKeyID(_ response: JSONValue) throws -> String? {
        let token = try #require(response["access_token"]?.stringValue)
        let header = try #require(Base64URL.decode(String(token.split(separator: ".")[0])))
        return try JSONValue(parsing: header)["kid"]?.stringValue
    }
}

@Suite("Housekeeping")
struct HousekeepingTests {
    @Test("a backlog larger than one write is purged in several short writes within one run")
    func backlog() async throws {
        let harness = try PasskeyHarness()
        let now = harness.clock.now()
        let count = Housekeeping.batchLimit * 2 + 7
        try await harness.context.store.write { writer in
            for n in 0..<count {
                try writer.insertRefreshToken(
                    RefreshToken(
                        tokenHash: Digest.sha256(Array("token-\(n)".utf8)), familyID: "family-\(n)", clientID: "app",
                        userID: "user-1", scope: "openid", authTime: now.addingTimeInterval(-90_000),
                        createdAt: now.addingTimeInterval(-90_000),
                        absoluteExpiresAt: now.addingTimeInterval(-Double(n)),
                        idleExpiresAt: now.addingTimeInterval(-Double(n))))
            }
        }
        await Housekeeping.purge(context: harness.context)
        let left = try await harness.context.store.write {
            try $0.purgeExpired(now: harness.clock.now(), limit: count)
        }
        #expect(left.refreshTokens == 0)
        #expect(
            harness.logLines.all.contains {
                $0.contains("purged expired rows") && $0.contains("\"refresh_tokens\":\(count)")
            })
    }

    @Test(
        "security events past audit.event_retention_days are purged in batches once in the audit log; by default none"
    )
    func eventRetention() async throws {
        let old = Housekeeping.eventBatchLimit * 2 + 150
        for retention in [nil, "30"] {
            let harness = try PasskeyHarness(retention.map { ["PASSKEYD_AUDIT_EVENT_RETENTION_DAYS": $0] } ?? [:])
            let now = harness.clock.now()
            try await harness.context.store.write { writer in
                for n in 0..<old {
                    _ = try writer.appendSecurityEvent(
                        SecurityEvent(
                            occurredAt: now.addingTimeInterval(-40 * 86_400 + Double(n)), storedKind: "old-\(n)",
                            outcome: "success"))
                }
                _ = try writer.appendSecurityEvent(
                    SecurityEvent(
                        occurredAt: now.addingTimeInterval(-29 * 86_400), storedKind: "recent", outcome: "success"))
            }
            // The sequencer's part: every event is in the audit log.
            _ = try await harness.context.store.write { try $0.takePendingSecurityEvents(limit: old + 1) }
            await Housekeeping.purge(context: harness.context)
            let left = try await harness.context.store.read { try $0.securityEvents(after: 0, limit: old + 10) }
            if retention == nil {
                #expect(left.count == old + 1, "kept forever by default")
            } else {
                #expect(left.map(\.kind) == ["recent"])
                #expect(
                    harness.logLines.all.contains {
                        $0.contains("purged security events past their retention")
                            && $0.contains("\"security_events\":\(old)")
                    })
            }
        }
    }

    @Test("expired auth sessions and spent sealed sessions are purged, live ones kept")
    func purge() async throws {
        let harness = try PasskeyHarness()
        // A login session spent by a refused presentation; the flows that still store sessions (adding a passkey,
        // recovery) stored one.
        let (_, first) = try await harness.loginOptions()
        #expect(await harness.token(session: first, response: ["id": "x"]).status == 403)
        let now = harness.clock.now()
        try await harness.context.store.write { writer in
            try writer.insertAuthSession(
                AuthSession(
                    id: "stored-1", clientID: "app", realm: "main", kind: .signup, challenge: [1], createdAt: now,
                    expiresAt: now.addingTimeInterval(90)))
        }
        // Past the WebAuthn timeout and the grace period.
        harness.clock.advance(60 + 31)
        let (_, second) = try await harness.loginOptions()
        #expect(await harness.token(session: second, response: ["id": "x"]).status == 403)
        let live = try #require(try harness.context.authSessionKey.sealer().open(second))
        await Housekeeping.purge(context: harness.context)
        let purgedAgain = try await harness.context.store.write {
            try $0.purgeExpired(now: harness.clock.now(), limit: 100)
        }
        #expect(purgedAgain.authSessions == 0 && purgedAgain.spentAuthSessions == 0)
        #expect(try await harness.context.store.read { try $0.isAuthSessionSpent(id: live.id) }, "the live one kept")
        #expect(
            harness.logLines.all.contains {
                $0.contains("purged expired rows") && $0.contains("\"auth_sessions\":1")
                    && $0.contains("\"spent_auth_sessions\":1")
            })
    }
}

/// A memory store whose reads and writes fail with `.busy` while `failing` is set (a database that went away), and
/// that counts the reads attempted.
private final class SwitchableStore: Store {
    let base = MemoryStore()
    let failing = Atomic<Bool>(false)
    /// Reads attempted, failed ones included.
    let reads = Atomic<Int>(0)

    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) throws -> T) async throws -> T {
        reads.add(1, ordering: .relaxed)
        guard !failing.load(ordering: .relaxed) else { throw StorageError(.busy, "database unreachable") }
        return try await base.read(body)
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreWriter) throws -> T) async throws -> T {
        guard !failing.load(ordering: .relaxed) else { throw StorageError(.busy, "database unreachable") }
        return try await base.write(body)
    }

    func close() async { await base.close() }
}
