import Foundation

/// Which key signs now and which keys the JWKS must publish.
///
/// A key is *active* at `now` when `createdAt ≤ now` and it is not retired (`retiredAt` nil or later than
/// `now`). The newest active key signs. A retired key stays published until every token it can have signed
/// has expired: `retiredAt + maxTokenLifetime`. A key created in the future is published already, so
/// verifiers with a cached JWKS know it before it signs anything.
public struct SigningKeyRotation: Sendable, Hashable {
    /// The longest lifetime of any token signed with these keys, plus verifiers' clock leeway.
    public var maxTokenLifetime: TimeInterval

    /// A rule for the given maximum token lifetime.
    public init(maxTokenLifetime: TimeInterval) {
        self.maxTokenLifetime = maxTokenLifetime
    }

    /// The newest active key (ties broken by the larger `kid`, so the choice is deterministic), or `nil`.
    public func signingKey(among keys: [SigningKeyRecord], at now: Date) -> SigningKeyRecord? {
        keys.filter { isActive($0, at: now) }.max { lhs, rhs in
            lhs.createdAt != rhs.createdAt ? lhs.createdAt < rhs.createdAt : lhs.keyID < rhs.keyID
        }
    }

    /// The keys to publish at `now`, in the order given: every key except those retired more than
    /// `maxTokenLifetime` ago.
    public func publishedKeys(among keys: [SigningKeyRecord], at now: Date) -> [SigningKeyRecord] {
        keys.filter { key in
            guard let retiredAt = key.retiredAt else { return true }
            return now < retiredAt.addingTimeInterval(maxTokenLifetime)
        }
    }

    private func isActive(_ key: SigningKeyRecord, at now: Date) -> Bool {
        guard key.createdAt <= now else { return false }
        guard let retiredAt = key.retiredAt else { return true }
        return now < retiredAt
    }
}
