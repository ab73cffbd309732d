import Configuration
import Crypto
import Foundation
import JSON
import Storage
import Synchronization
import Tokens

/// Mints and verifies passkeyd's tokens: access tokens (RFC 9068) signed as their API says, ID tokens (OIDC Core
/// §2, RS256 unless the client asks for ES256) and opaque refresh tokens, with signing keys kept in the store.
///
/// The keys are loaded once and cached with everything derived from them (signer, verifier, JWKS bytes);
/// the cache is rebuilt every `reloadInterval`, so a key added by `passkeyd keys rotate` (or by another node)
/// signs within that interval without a restart. Two things read the keys sooner, together at most once per
/// `onDemandReloadInterval`: a presented token that names a key this node does not know, and a JWKS request
/// (whose answer is then never more than that old, so every node publishes a key as soon as any node can sign
/// with it).
public final class TokenService: Sendable {
    /// How long a loaded key ring is used before the store is read again.
    package static let reloadInterval: TimeInterval = 30
    /// Clock skew verifiers are assumed to tolerate, added to how long a retired key stays published.
    package static let verifierLeeway: TimeInterval = 30

    package let configuration: ServerConfiguration
    package let store: any Store
    package let clock: any WallClock
    /// The issuer's own API identifier: the default `aud` of access tokens and the audience `/userinfo` requires
    /// (its only use).
    public let defaultAudience: String
    /// The account API (`<issuer>me/`): the only `aud` account management (`/me/…`) accepts. A client asks for it
    /// explicitly; no other API's token carries it.
    public let accountAudience: String
    /// The device-key API's audience (`device_keys.audience`): the only `aud` the device-key endpoints accept.
    /// Any client may ask for it with `audience` at login.
    public let deviceKeyAudience: String
    package let rotation: SigningKeyRotation
    /// The refresh-token rules (rotation, reuse, idle and absolute lifetime) with the configured lifetimes.
    package let refreshPolicy: RefreshTokenPolicy
    /// The audience and scope rule every grant applies.
    package let authorization: ResourceAuthorization
    /// The key-encryption keys of the signing keys at rest (`SecretEncryptionKeys`, `.none` when none is
    /// configured), read when the service is made. A file that cannot serve is reported by `bootstrap()`, so the
    /// server does not start, and by every later read of the keys.
    package let keyEncryption: Result<SecretEncryptionKeys, SecretEncryption.Failure>
    /// The loaded keys (`nil` before `bootstrap()`); read without the store by `cachedJWKSBytes()`.
    let ring = Mutex<SigningKeyRing?>(nil)
    /// When a token naming an unknown key or a JWKS request last made this node read its keys again.
    let lastOnDemandReload = Mutex<Date?>(nil)

    /// A token service over `store`'s signing keys.
    public convenience init(configuration: ServerConfiguration, store: any Store, clock: any WallClock) {
        self.init(
            configuration: configuration, store: store, clock: clock,
            secrets: SecretEncryptionKeys.configured(configuration))
    }

    /// A token service whose signing keys are sealed at rest under `secrets` (`ServerContext.secrets`).
    package init(
        configuration: ServerConfiguration, store: any Store, clock: any WallClock,
        secrets: Result<SecretEncryptionKeys, SecretEncryption.Failure>
    ) {
        self.configuration = configuration
        self.store = store
        self.clock = clock
        self.defaultAudience = configuration.issuer
        self.deviceKeyAudience = configuration.deviceKeys.audience
        self.accountAudience = configuration.accountAudience
        self.authorization = ResourceAuthorization(configuration: configuration)
        self.keyEncryption = secrets
        let longest = max(configuration.longestAccessTokenLifetime, configuration.tokens.idTokenLifetime)
        // A retired key stays in the JWKS until every token it signed has expired, including tokens signed by a
        // node that had not reloaded yet, and verifiers' leeway.
        self.rotation = SigningKeyRotation(
            maxTokenLifetime: TimeInterval(longest) + Self.reloadInterval + Self.verifierLeeway)
        self.refreshPolicy = RefreshTokenPolicy(
            idleLifetime: TimeInterval(configuration.tokens.refreshTokenIdleLifetime),
            absoluteLifetime: TimeInterval(configuration.tokens.refreshTokenAbsoluteLifetime),
            reuseGrace: TimeInterval(configuration.tokens.refreshTokenReuseGrace))
    }

    // MARK: keys

    /// Loads the signing keys, generating and storing the first key of each algorithm on first start.
    public func bootstrap() async throws {
        _ = try await reload()
    }

    /// With a key-encryption key configured, seals every signing key still stored unencrypted (from before it was
    /// configured, or added by a process without it) or under a key that only opens (the previous key-encryption
    /// key, while it is rotated); returns their `kid`s. Each is replaced only if still the bytes read
    /// (compare-and-set), so nodes starting together seal each key once.
    public func encryptStoredKeys() async throws -> [String] {
        let encryption = try keyEncryption.get()
        guard encryption.sealing != nil else { return [] }
        let stored = try await store.read { try $0.signingKeys() }
        let pairs = try stored.compactMap { key in try encryption.resealed(key).map { (key, $0) } }
        guard !pairs.isEmpty else { return [] }
        let now = clock.now()
        return try await store.write { writer in
            var replaced: [String] = []
            for (old, new) in pairs {
                // Another node starting at the same time may have sealed it first: then it records that.
                guard
                    try writer.replaceSigningKeyPrivateKey(
                        kid: old.kid, expected: old.privateKey, replacement: new.privateKey)
                else { continue }
                replaced.append(old.kid)
                // In the audit log: which key-encryption key now protects the key, and what did before.
                var event = AuthenticationAuditEvent.make(
                    .signingKeySealed, outcome: AuthenticationAuditEvent.success, now: now,
                    keyID: old.kid)
                event.detail = JSONValue.object(
                    encryption.resealingDetail(
                        of: old.privateKey, isPlain: !SecretEncryption.isSealed(old.privateKey))
                ).serialized()
                _ = try writer.appendSecurityEvent(event)
            }
            return replaced
        }
    }

    /// Every stored signing key, what it does at `now` and how it is kept at rest (`passkeyd keys list`).
    public func keyStatuses(now: Date) async throws -> [SigningKeyStatus] {
        SigningKeyStatus.statuses(of: try await store.read { try $0.signingKeys() }, rotation: rotation, now: now)
    }

    /// How the signing keys are kept at rest, for the start-up log: the key-encryption key's fingerprint, or `nil`
    /// when they are stored unencrypted.
    public var keyEncryptionFingerprint: String? {
        (try? keyEncryption.get())?.sealing?.fingerprintText
    }

    /// The current key ring, reloaded from the store when older than `reloadInterval`.
    package func currentRing() async throws -> SigningKeyRing {
        let now = clock.now()
        if let cached = ring.withLock({ $0 }), now.timeIntervalSince(cached.loadedAt) < Self.reloadInterval,
            now >= cached.loadedAt
        {
            return cached
        }
        return try await reload()
    }

    /// The shortest time between two reloads on demand (a token naming an unknown `kid`, a JWKS request): made-up
    /// kids and JWKS floods cost at most one read of the keys per second per node, and the JWKS a node serves is at
    /// most that old.
    package static let onDemandReloadInterval: TimeInterval = 1

    /// The keys read again on demand, or nil when they were read on demand less than `onDemandReloadInterval` ago.
    package func ringReloadedOnDemand() async throws -> SigningKeyRing? {
        let now = clock.now()
        let due = lastOnDemandReload.withLock { (last) -> Bool in
            guard Self.isOnDemandReloadDue(last: last, now: now) else { return false }
            last = now
            return true
        }
        return due ? try await reload() : nil
    }

    /// Whether keys last read on demand at `last` may be read on demand again at `now`.
    static func isOnDemandReloadDue(last: Date?, now: Date) -> Bool {
        guard let last, now >= last else { return true }
        return now.timeIntervalSince(last) >= onDemandReloadInterval
    }

    private func reload() async throws -> SigningKeyRing {
        let now = clock.now()
        // Read first (the common case); create the first key of an algorithm inside a write, so concurrent starts
        // make one. A store from before RS256 gets its first RSA key here.
        let encryption = try keyEncryption.get()
        var keys = try await store.read { try $0.signingKeys() }
        let missing = Self.missingAlgorithms(keys)
        if missing != [] {
            // Made off the cooperative pool, before the write: no writer waits for an RSA prime search.
            let generated = try await SigningKeyRing.generateKeys(missing, now: now).map { try encryption.stored($0) }
            keys = try await store.write { writer in
                // Checked again inside the write: another request or node may have created it meanwhile.
                let stillMissing = Self.missingAlgorithms(try writer.signingKeys()).map(\.rawValue)
                for key in generated where stillMissing.contains(key.algorithm) { try writer.insertSigningKey(key) }
                return try writer.signingKeys()
            }
        }
        // A key stored unencrypted (`keys rotate` run with a configuration that lacks the key file) or under a key
        // that only opens is sealed by the first reload that meets it, not at the next start only: the private key
        // lies in the database in the clear for at most one reload interval. The first load is left to the start,
        // which seals right after it and logs what it sealed (`encryptStoredKeys`). Best effort: a failed write
        // leaves the keys as read, for the next reload to try again.
        if ring.withLock({ $0 }) != nil, encryption.sealing != nil,
            keys.contains(where: { encryption.needsSealing($0.privateKey) }),
            let sealed = try? await encryptStoredKeys(), !sealed.isEmpty
        {
            keys = try await store.read { try $0.signingKeys() }
        }
        let opened = try keys.map { try encryption.open($0) }
        let loaded = try SigningKeyRing(keys: opened, rotation: rotation, now: now)
        ring.withLock { $0 = loaded }
        return loaded
    }

    /// The algorithms without any stored key.
    private static func missingAlgorithms(_ keys: [SigningKey]) -> [TokenSigningAlgorithm] {
        TokenSigningAlgorithm.allCases.filter { algorithm in !keys.contains { $0.algorithm == algorithm.rawValue } }
    }

    /// How long a rotated key is published before it signs: one reload interval plus a margin for clocks and a slow
    /// reload. It was sized when a node published a key only at its 30 s reload; now every node's JWKS lists it
    /// within `onDemandReloadInterval` and a verifier shown an unknown `kid` reads the keys again, so the delay is
    /// margin for resource servers, which hold a JWKS up to its `max-age` (60 s) and fetch it again for a `kid`
    /// they do not know. Kept, not shortened: a rotation is rare and waiting costs nothing.
    public static let keyPublicationDelay: TimeInterval = reloadInterval + 10

    /// Adds a new signing key of each algorithm (ES256 and RS256) and retires the keys before them (they stay
    /// published until their tokens have expired). The new keys are published at once and sign from
    /// `now + keyPublicationDelay` (their `createdAt` is that instant, when the old keys retire); with `immediately`,
    /// from `now` (a compromised key: nodes that have not reloaded yet sign with the old key for up to
    /// `reloadInterval`, and verify the new one's tokens after an on-demand read). Returns the new keys' `kid`s
    /// (ES256 first) and when they start signing.
    /// With a sealing key in `encryption`, the new keys are stored sealed under it (`SecretEncryptionKeys`).
    package static func rotateKeys(
        store: any Store, now: Date, immediately: Bool = false, encryption: SecretEncryptionKeys = .none
    ) async throws -> (kids: [String], signsFrom: Date) {
        let activation = immediately ? now : now.addingTimeInterval(keyPublicationDelay)
        let keys = try await SigningKeyRing.generateKeys(TokenSigningAlgorithm.allCases, now: activation).map {
            try encryption.stored($0)
        }
        try await store.write { writer in
            for old in try writer.signingKeys() where old.retiredAt == nil {
                _ = try writer.retireSigningKey(kid: old.kid, at: activation)
            }
            for key in keys {
                try writer.insertSigningKey(key)
                _ = try writer.appendSecurityEvent(
                    AuthenticationAuditEvent.make(
                        .signingKeyRotated, outcome: AuthenticationAuditEvent.success, now: now,
                        keyID: key.kid))
            }
        }
        return (keys.map(\.kid), activation)
    }
}
