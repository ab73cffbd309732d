import Crypto
import Foundation
import Storage
import Testing

@testable import Service

@Suite("Rotating the auth sessions' secret: published, then sealing, the old one opening until dropped")
struct AuthSessionKeyRotationTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func session() throws -> AuthSession {
        AuthSession(
            id: try AuthSessionSealer.newSessionID(now: now), clientID: "app", realm: "main", kind: .login,
            challenge: try SecureRandom.bytes(count: 32),
            createdAt: now, expiresAt: now.addingTimeInterval(300))
    }

    /// Two nodes on one store, each loading the keys as a start does.
    static func nodes(_ store: MemoryStore, keys: SecretEncryptionKeys = .none) async throws
        -> (AuthSessionKey, AuthSessionKey)
    {
        let (a, b) = (AuthSessionKey(), AuthSessionKey())
        try await a.load(store: store, keys: keys)
        try await b.load(store: store, keys: keys)
        return (a, b)
    }

    static func opens(_ node: AuthSessionKey, _ value: String) throws -> Bool {
        try node.sealer().open(value) != nil
    }

    @Test("no node sees a value it cannot open at any step, whichever node has read the change")
    func seamless() async throws {
        let store = MemoryStore()
        let (a, b) = try await Self.nodes(store)
        let old = try a.sealer().seal(try Self.session())
        let oldTransaction = try a.transactionSealer().seal(
            HostedTransaction(
                clientID: "web", redirectURI: "https://app.example.com/callback", codeChallenge: "c", scope: "openid",
                csrf: "x", expiresAt: Self.now.addingTimeInterval(600)))

        // Published: a node that read it opens with it, and still seals with the current secret.
        try await AuthSessionKeyRotation.publish(store: store, keys: .none)
        #expect(try await a.reload())
        #expect(try #require(a.keyring()).count == 2)
        let stillOld = try a.sealer().seal(try Self.session())
        #expect(try Self.opens(b, stillOld), "b has not read the publication, and needs not")

        // Both read the publication before it seals (the publication delay), then it is promoted.
        try await b.reload()
        try await AuthSessionKeyRotation.promote(store: store, keys: .none, now: Self.now, dropPrevious: false)
        #expect(try await a.reload())
        let new = try a.sealer().seal(try Self.session())
        #expect(new != old)
        // b has not read the promotion: it opens the new secret's values (published) and seals with the old one,
        // which a still opens (previous).
        #expect(try Self.opens(b, new))
        let fromB = try b.sealer().seal(try Self.session())
        #expect(try Self.opens(a, fromB))
        #expect(try Self.opens(a, old) && Self.opens(a, stillOld))
        #expect(try a.transactionSealer().open(oldTransaction, now: Self.now) != nil)
        try await b.reload()
        #expect(try #require(b.keyring()).count == 2, "current and previous: next is the current one now")
        #expect(try await !b.reload(), "nothing changed since")

        let events = try await store.read { try $0.securityEvents(after: 0, limit: 10) }
        #expect(events.map(\.kind) == ["server_secret_rotated"])
        #expect(events.first?.reasonCode == "previous_kept")
    }

    @Test("--now: the old secret opens nothing once a node has read the change")
    func dropped() async throws {
        let store = MemoryStore()
        let (a, _) = try await Self.nodes(store)
        let old = try a.sealer().seal(try Self.session())
        try await AuthSessionKeyRotation.publish(store: store, keys: .none)
        try await AuthSessionKeyRotation.promote(store: store, keys: .none, now: Self.now, dropPrevious: true)
        try await a.reload()
        #expect(try !Self.opens(a, old))
        #expect(try #require(a.keyring()).count == 1)
        let new = try a.sealer().seal(try Self.session())
        #expect(try Self.opens(a, new))
        let events = try await store.read { try $0.securityEvents(after: 0, limit: 10) }
        #expect(events.map(\.reasonCode) == ["previous_dropped"])
    }

    @Test("a promotion needs a publication, once; a second rotation retires the first one's previous secret")
    func refusals() async throws {
        let store = MemoryStore()
        let (a, _) = try await Self.nodes(store)
        let first = try a.sealer().seal(try Self.session())
        await #expect(throws: AuthSessionKeyRotation.Refusal.self) {
            try await AuthSessionKeyRotation.promote(store: store, keys: .none, now: Self.now, dropPrevious: false)
        }
        try await AuthSessionKeyRotation.publish(store: store, keys: .none)
        try await AuthSessionKeyRotation.promote(store: store, keys: .none, now: Self.now, dropPrevious: false)
        await #expect(throws: AuthSessionKeyRotation.Refusal.self) {
            try await AuthSessionKeyRotation.promote(store: store, keys: .none, now: Self.now, dropPrevious: false)
        }
        try await a.reload()
        let second = try a.sealer().seal(try Self.session())
        #expect(try Self.opens(a, first))
        // Two rotations on: the first secret is gone, the second one is the previous.
        try await AuthSessionKeyRotation.publish(store: store, keys: .none)
        try await AuthSessionKeyRotation.promote(store: store, keys: .none, now: Self.now, dropPrevious: false)
        try await a.reload()
        #expect(try !Self.opens(a, first))
        #expect(try Self.opens(a, second))
    }

    @Test("a value sealed under a secret this node has not read yet: the node reads the secrets again, once a second")
    func onDemand() async throws {
        let store = MemoryStore()
        let clock = TestClock(Self.now)
        let configuration = try TestConfiguration.make()
        let (a, b) = (
            ServerContext(configuration: configuration, store: store, clock: clock),
            ServerContext(configuration: configuration, store: store, clock: clock)
        )
        try await a.loadAuthSessionKey()
        try await b.loadAuthSessionKey()
        // Rotated with --now; b reads the change, a has not.
        try await AuthSessionKeyRotation.publish(store: store, keys: .none)
        try await AuthSessionKeyRotation.promote(store: store, keys: .none, now: Self.now, dropPrevious: true)
        try await b.authSessionKey.reload()
        let session = try b.authSessionKey.sealer().seal(try Self.session())
        let transaction = try b.authSessionKey.transactionSealer().seal(
            HostedTransaction(
                clientID: "web", redirectURI: "https://app.example.com/callback", codeChallenge: "c", scope: "openid",
                csrf: "x", expiresAt: Self.now.addingTimeInterval(600)))
        #expect(try a.authSessionKey.sealer().open(session) == nil, "not without reading the secrets")
        #expect(try await a.openAuthSession(session) != nil)
        #expect(try await a.openHostedTransaction(transaction, now: Self.now) != nil)

        // Another rotation within the second: a made-up or newer value does not make a read the store again.
        try await AuthSessionKeyRotation.publish(store: store, keys: .none)
        try await AuthSessionKeyRotation.promote(store: store, keys: .none, now: Self.now, dropPrevious: true)
        try await b.authSessionKey.reload()
        let newer = try b.authSessionKey.sealer().seal(try Self.session())
        clock.advance(0.5)
        #expect(try await a.openAuthSession(newer) == nil)
        #expect(try await a.openAuthSession("garbage") == nil)
        clock.advance(0.5)
        #expect(try await a.openAuthSession(newer) != nil)
    }

    @Test("with a key-encryption key every row is stored sealed, bound to its own name")
    func sealedAtRest() async throws {
        let store = MemoryStore()
        let keys = SecretEncryptionKeys(
            sealing: try SecretEncryption(key: try SecureRandom.bytes(count: 32)), openingOnly: [])
        let (a, _) = try await Self.nodes(store, keys: keys)
        let old = try a.sealer().seal(try Self.session())
        try await AuthSessionKeyRotation.publish(store: store, keys: keys)
        try await AuthSessionKeyRotation.promote(store: store, keys: keys, now: Self.now, dropPrevious: false)
        try await a.reload()
        #expect(try Self.opens(a, old))
        for name in AuthSessionKey.secretNames {
            let stored = try #require(try await store.read { try $0.serverSecret(name: name) })
            #expect(!SecretEncryptionKeys.isUnencryptedNamedSecret(stored), "\(name)")
            #expect(try keys.namedSecret(stored, name: name).count == 32)
        }
        // A row copied under another name does not open as that name (the name is bound in).
        let previous = try #require(
            try await store.read { try $0.serverSecret(name: AuthSessionKey.previousSecretName) })
        #expect(throws: (any Error).self) { try keys.namedSecret(previous, name: AuthSessionKey.secretName) }
    }
}
