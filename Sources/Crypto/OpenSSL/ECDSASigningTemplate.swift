internal import COpenSSL

/// One private key's ECDSA signing context, initialised once and copied for each signature.
///
/// Why: in OpenSSL 3.0 every `EVP_DigestSignInit` (and `EVP_PKEY_sign_init`) fetches the signature algorithm and
/// the digest from the provider store — locks and hash look-ups — which under a token-minting load cost a third
/// as much as the signature itself. `EVP_PKEY_CTX_dup` copies the initialised context without fetching; the copy
/// is a per-call context that lives and dies inside `sign(digest:)`.
final class ECDSASigningTemplate: @unchecked Sendable {  // after init `context` is only read (dup takes it const)
    private let context: OpaquePointer
    /// The digest length the context was initialised for (SHA-256: 32 bytes).
    let digestByteCount: Int
    /// The longest signature the key makes (`EVP_PKEY_get_size`: 72 bytes of DER for P-256), so that one
    /// `EVP_PKEY_sign` call signs without first asking for the size.
    let signatureCapacity: Int

    /// Initialises a signing context for `key` and `method`; `nil` when OpenSSL refuses (callers then fall back to
    /// `EVPKey.digestSign`).
    init?(key: EVPKey, method: MessageDigestMethod) {
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key.pointer, nil) else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        // The digest is set so that OpenSSL itself refuses an input of any other length.
        guard EVP_PKEY_sign_init(context) == 1, EVP_PKEY_CTX_set_signature_md(context, method.pointer) == 1 else {
            EVP_PKEY_CTX_free(context)
            OpenSSLErrorQueue.clear()
            return nil
        }
        let capacity = Int(EVP_PKEY_get_size(key.pointer))
        guard capacity > 0 else {
            EVP_PKEY_CTX_free(context)
            OpenSSLErrorQueue.clear()
            return nil
        }
        self.context = context
        self.digestByteCount = method.byteCount
        self.signatureCapacity = capacity
    }

    deinit { EVP_PKEY_CTX_free(context) }

    /// The DER ECDSA signature (RFC 3279 §2.2.3 Ecdsa-Sig-Value) over an already computed digest.
    /// - Throws: `.internalFailure` when the digest has the wrong length or OpenSSL fails.
    func sign(digest: [UInt8]) throws(CryptoError) -> [UInt8] {
        // Length check before handing bytes to C (STYLE.md, C interop 5).
        guard digest.count == digestByteCount else {
            throw CryptoError(.internalFailure, "digest of \(digest.count) bytes, expected \(digestByteCount)")
        }
        guard let copy = EVP_PKEY_CTX_dup(context) else {
            throw OpenSSLErrorQueue.failure(.internalFailure, "EVP_PKEY_CTX_dup")
        }
        defer { EVP_PKEY_CTX_free(copy) }
        var written = 0
        var ok = false
        let output = [UInt8](unsafeUninitializedCapacity: signatureCapacity) { buffer, initialized in
            written = buffer.count
            ok = EVP_PKEY_sign(copy, buffer.baseAddress, &written, digest, digest.count) == 1
            if !ok || written > buffer.count { written = 0 }
            // Only the signature's bytes count as initialised; the rest of the capacity is never read.
            initialized = written
        }
        guard ok, written > 0 else { throw OpenSSLErrorQueue.failure(.internalFailure, "EVP_PKEY_sign") }
        return output
    }
}
