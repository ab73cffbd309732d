import Foundation

/// The JWKS document (RFC 7517 §5) this node publishes.
extension TokenService {
    /// The JWKS document bytes (RFC 7517 §5), from keys read at most `onDemandReloadInterval` ago. A key another
    /// node signs with at once (`keys rotate --now`, the first key of an algorithm on an upgraded cluster) is thus
    /// published by this node within a second, not after its `reloadInterval`: a resource server that fetches the
    /// JWKS again for a `kid` it does not know finds it whichever node answers.
    package func jwksBytes() async throws -> [UInt8] {
        if let cached = cachedJWKSBytes() { return cached }
        // Due (the keys were read on demand a second ago or more): read them again. Or the store failed: the cached
        // ring, as before, while it is younger than `reloadInterval` (a database blip does not take the JWKS down).
        if let reloaded = try? await ringReloadedOnDemand() { return reloaded.jwksBytes }
        return try await currentRing().jwksBytes
    }

    /// `jwksBytes()`'s answer when it reads nothing from the store, else `nil`: the cached ring's JWKS when the ring
    /// was read less than `onDemandReloadInterval` ago, or when it is younger than `reloadInterval` and the keys
    /// were read on demand less than `onDemandReloadInterval` ago (another request's ring is the fresh one). For
    /// the JWKS endpoint's answer on the thread that read the request (`Router.add(_:_:inlineWhenPossible:…)`).
    package func cachedJWKSBytes() -> [UInt8]? {
        let now = clock.now()
        guard let cached = ring.withLock({ $0 }), now >= cached.loadedAt else { return nil }
        let age = now.timeIntervalSince(cached.loadedAt)
        if age < Self.onDemandReloadInterval { return cached.jwksBytes }
        guard age < Self.reloadInterval,
            !Self.isOnDemandReloadDue(last: lastOnDemandReload.withLock({ $0 }), now: now)
        else { return nil }
        return cached.jwksBytes
    }
}
