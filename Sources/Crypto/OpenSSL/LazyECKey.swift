internal import COpenSSL
import Synchronization

/// The OpenSSL side of an `ECPublicKey`: its group and the point decoded and validated on it (an `EC_POINT` this
/// object owns), which verification sets on a pooled `EC_KEY` (`ECGroup.verify`), and the `EVP_PKEY` that only
/// DER export needs, built on first use and then kept.
final class LazyECKey: @unchecked Sendable {  // `decoded` is written once in init, then only read (copied by
    // EC_KEY_set_public_key); `envelope` is behind its mutex.
    /// The validated point's group.
    private let group: ECGroup
    /// The uncompressed point, already validated on `group`.
    private let point: [UInt8]
    /// The owned `EC_POINT *`: `point` as validation decoded it.
    private let decoded: OpaquePointer
    /// The `EVP_PKEY` once built (`nil` before first use).
    private let envelope = Mutex<EVPKey?>(nil)

    /// Decodes `point` (`04 || X || Y`, its length already checked) on `curve`'s group and validates it
    /// (SEC 1 v2 §3.2.2.1, `ECGroup.decodeValidated`).
    /// - Throws: `.invalidKey` for a point that fails validation; `.internalFailure` when OpenSSL cannot
    ///   allocate.
    init(curve: EllipticCurve, point: [UInt8]) throws(CryptoError) {
        guard let group = ECGroup.of(curve) else {
            throw OpenSSLErrorQueue.failure(.internalFailure, "EC_GROUP_new_by_curve_name for \(curve)")
        }
        guard let decoded = EC_POINT_new(group.pointer) else {
            throw OpenSSLErrorQueue.failure(.internalFailure, "EC_POINT_new")
        }
        guard group.decodeValidated(point, into: decoded) else {
            EC_POINT_free(decoded)
            throw CryptoError(.invalidKey, "EC point is not a valid public key on \(curve)")
        }
        self.group = group
        self.point = point
        self.decoded = decoded
    }

    deinit { EC_POINT_free(decoded) }

    /// ECDSA verification of `signature` (a strictly decoded `ECDSA_SIG`) over `message || suffix` hashed with
    /// `hash` under this point.
    func verify(
        _ signature: OpaquePointer, message: [UInt8], followedBy suffix: UnsafeRawBufferPointer, hash: HashAlgorithm
    ) -> Bool {
        group.verify(signature, message: message, followedBy: suffix, hash: hash, publicKey: decoded)
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
