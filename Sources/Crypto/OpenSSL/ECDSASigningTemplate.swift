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
        self.context = context
        self.digestByteCount = method.byteCount
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
        return try digest.withUnsafeBufferPointer { (digestBytes) throws(CryptoError) -> [UInt8] in
            var capacity = 0
            guard EVP_PKEY_sign(copy, nil, &capacity, digestBytes.baseAddress, digestBytes.count) == 1, capacity > 0
            else {
                throw OpenSSLErrorQueue.failure(.internalFailure, "EVP_PKEY_sign (size)")
            }
            var output = [UInt8](repeating: 0, count: capacity)
            var written = capacity
            let ok = output.withUnsafeMutableBufferPointer { buffer in
                EVP_PKEY_sign(copy, buffer.baseAddress, &written, digestBytes.baseAddress, digestBytes.count) == 1
            }
            guard ok, written <= capacity else {
                throw OpenSSLErrorQueue.failure(.internalFailure, "EVP_PKEY_sign")
            }
            return Array(output.prefix(written))
        }
    }
}
