import Synchronization

/// The OpenSSL side of an `ECPublicKey`: its group and decoded point, which verification sets on a
/// pooled `EC_KEY` (`ECGroup.verify`), and the `EVP_PKEY` that only DER export needs, built on first use
/// and then kept.
final class LazyECKey: Sendable {
    /// The validated point's group.
    private let group: ECGroup
    /// The uncompressed point, already validated on `group`.
    private let point: [UInt8]
    /// `point` as validation decoded it.
    private let decoded: ECPointObject
    /// The `EVP_PKEY` once built (`nil` before first use).
    private let envelope = Mutex<EVPKey?>(nil)

    /// Holds a point that passed `ECGroup.validatedPoint`, with what it returned.
    init(group: ECGroup, encoded: [UInt8], decoded: ECPointObject) {
        self.group = group
        self.point = encoded
        self.decoded = decoded
    }

    /// ECDSA verification of `signature` over `message` hashed with `hash` under this point.
    func verify(_ signature: ECDSASignatureObject, message: [UInt8], hash: HashAlgorithm) -> Bool {
        group.verify(signature, message: message, hash: hash, publicKey: decoded)
    }

    /// The key as an `EVP_PKEY` (for DER export), built on first call; `nil` only if OpenSSL could not
    /// allocate it.
    var key: EVPKey? {
        envelope.withLock { cached in
            if let cached { return cached }
            let key = try? group.publicKey(point: point)
            cached = key
            return key
        }
    }
}
