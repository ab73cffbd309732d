internal import COpenSSL

/// Owner of one `EC_KEY` on a curve's group, the key ECDSA verification runs on (COpenSSL's shim says why it is not
/// an `EVP_PKEY`). Building one copies the group, which costs about 2% of an authentication (docs/design-notes.md,
/// Verification), so each `ECGroup` keeps its idle keys and a verification borrows one and sets the credential's
/// point on it.
final class ECKeyObject: @unchecked Sendable {  // used by one borrower at a time (ECGroup.verify)
    /// The owned `EC_KEY *`.
    private let pointer: OpaquePointer

    /// A key on `group` without a public point yet; `nil` only when OpenSSL cannot allocate it.
    init?(group: ECGroup) {
        guard let key = COpenSSL_ec_key_new_on_group(group.pointer) else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        pointer = key
    }

    deinit { COpenSSL_ec_key_free(pointer) }

    /// ECDSA verification (SEC 1 v2 §4.1.4) of `signature` over `message` hashed with `hash`, under the public key
    /// `point` (an `EC_POINT` decoded and validated on this key's group by `ECGroup.decodeValidated`). `signature`
    /// (an `ECDSA_SIG`) is already strictly decoded, r and s in range (`ECDSASignatureCodec.withStrict`).
    func verify(_ signature: OpaquePointer, message: [UInt8], hash: HashAlgorithm, publicKey point: OpaquePointer)
        -> Bool
    {
        guard COpenSSL_ec_key_set_public_key(pointer, point) == 1 else {
            OpenSSLErrorQueue.clear()
            return false
        }
        let digest = Digest.hash(message, using: hash)
        let verified = COpenSSL_ecdsa_do_verify(digest, Int32(digest.count), signature, pointer) == 1
        if !verified { OpenSSLErrorQueue.clear() }
        return verified
    }
}
