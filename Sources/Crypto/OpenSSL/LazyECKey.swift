import Synchronization

/// The OpenSSL key of an `ECPublicKey`, built on first use and then kept. A validated point is all a
/// key needs to be compared, stored or re-encoded; only verification needs an `EVP_PKEY`, and a
/// registration with `none` attestation never verifies with the credential key at all.
final class LazyECKey: Sendable {
    /// The validated point's group.
    private let group: ECGroup
    /// The uncompressed point, already validated on `group`.
    private let point: [UInt8]
    /// The key once built (`nil` before first use).
    private let built = Mutex<EVPKey?>(nil)

    /// Holds a point that passed `ECGroup.isValidPublicPoint`.
    init(group: ECGroup, validatedPoint: [UInt8]) {
        self.group = group
        self.point = validatedPoint
    }

    /// The key, built on first call; `nil` only if OpenSSL could not allocate it.
    var key: EVPKey? {
        built.withLock { cached in
            if let cached { return cached }
            let key = try? group.publicKey(point: point)
            cached = key
            return key
        }
    }
}
