internal import COpenSSL

/// Owner of an `ECPublicKey`'s point as OpenSSL holds it: an `EC_POINT` decoded and validated once, when the key is
/// built, on its curve's group, which verification sets on a borrowed `EC_KEY` (`ECGroup.verify`).
final class ECPointObject: @unchecked Sendable {  // immutable after init; EC_KEY_set_public_key only reads the point
    /// The point's group.
    private let group: ECGroup
    /// The owned `EC_POINT *`.
    private let pointer: OpaquePointer

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
        self.pointer = decoded
    }

    deinit { EC_POINT_free(pointer) }

    /// ECDSA verification of `signature` (a strictly decoded `ECDSA_SIG`) over `message` hashed with `hash` under
    /// this point.
    func verify(_ signature: OpaquePointer, message: [UInt8], hash: HashAlgorithm) -> Bool {
        group.verify(signature, message: message, hash: hash, publicKey: pointer)
    }
}
