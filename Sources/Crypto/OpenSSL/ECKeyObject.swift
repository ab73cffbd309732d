internal import COpenSSL

/// Owner of the `EC_KEY` an `ECPublicKey` verifies with: the key's point, decoded and validated once when the
/// key is built, on a copy of its curve's group. ECDSA runs through OpenSSL's `EC_KEY` API rather than an
/// `EVP_PKEY` (COpenSSL's shim says why); OpenSSL only reads the key while verifying, so threads share it.
final class ECKeyObject: @unchecked Sendable {  // immutable after init; ECDSA_do_verify only reads the key
    /// The owned `EC_KEY *`, its public point set.
    private let pointer: OpaquePointer

    /// Decodes `point` (`04 || X || Y`, its length already checked) on `curve`'s group, validates it
    /// (SEC 1 v2 §3.2.2.1, `ECGroup.decodeValidated`) and builds the key on it.
    /// - Throws: `.invalidKey` for a point that fails validation; `.internalFailure` when OpenSSL cannot
    ///   allocate.
    init(curve: EllipticCurve, point: [UInt8]) throws(CryptoError) {
        guard let group = ECGroup.of(curve) else {
            throw OpenSSLErrorQueue.failure(.internalFailure, "EC_GROUP_new_by_curve_name for \(curve)")
        }
        guard let decoded = EC_POINT_new(group.pointer) else {
            throw OpenSSLErrorQueue.failure(.internalFailure, "EC_POINT_new")
        }
        defer { EC_POINT_free(decoded) }
        guard group.decodeValidated(point, into: decoded) else {
            throw CryptoError(.invalidKey, "EC point is not a valid public key on \(curve)")
        }
        guard let key = COpenSSL_ec_key_new_on_group(group.pointer) else {
            throw OpenSSLErrorQueue.failure(.internalFailure, "EC_KEY_new")
        }
        // EC_KEY_set_public_key copies the point.
        guard COpenSSL_ec_key_set_public_key(key, decoded) == 1 else {
            COpenSSL_ec_key_free(key)
            throw OpenSSLErrorQueue.failure(.internalFailure, "EC_KEY_set_public_key")
        }
        pointer = key
    }

    deinit { COpenSSL_ec_key_free(pointer) }

    /// ECDSA verification (SEC 1 v2 §4.1.4) of `signature` over `message` hashed with `hash`. `signature` (an
    /// `ECDSA_SIG`) is already strictly decoded, r and s in range (`ECDSASignatureCodec.withStrict`).
    func verify(_ signature: OpaquePointer, message: [UInt8], hash: HashAlgorithm) -> Bool {
        let digest = Digest.hash(message, using: hash)
        let verified = COpenSSL_ecdsa_do_verify(digest, Int32(digest.count), signature, pointer) == 1
        if !verified { OpenSSLErrorQueue.clear() }
        return verified
    }
}
