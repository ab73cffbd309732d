internal import COpenSSL

/// HKDF with SHA-256 (RFC 5869), computed by OpenSSL (`EVP_PKEY_HKDF`, extract then expand): derives keys of a
/// purpose from one secret.
public enum HKDF {
    /// The output of SHA-256, in bytes (`HashLen`).
    private static let hashLength = 32

    /// `length` bytes of output keying material from `secret` (the input keying material), `salt` (none: HashLen
    /// zero bytes, RFC 5869 §2.2, as OpenSSL does without one) and `info` (the purpose label, binding the key to one
    /// use).
    /// - Throws: `.invalidKey` for an empty secret or a length outside 1…255·HashLen (§2.3); `.internalFailure` when
    ///   OpenSSL cannot compute it.
    public static func sha256(secret: [UInt8], salt: [UInt8] = [], info: [UInt8], length: Int) throws(CryptoError)
        -> [UInt8]
    {
        guard !secret.isEmpty else { throw CryptoError(.invalidKey, "HKDF input keying material is empty") }
        guard (1...255 * hashLength).contains(length) else {
            throw CryptoError(.invalidKey, "HKDF output length \(length) is outside 1...\(255 * hashLength)")
        }
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, nil) else {
            throw OpenSSLErrorQueue.failure(.internalFailure, "EVP_PKEY_CTX_new_id(HKDF)")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var written = length
        var output = [UInt8](repeating: 0, count: length)
        let ok =
            EVP_PKEY_derive_init(context) == 1
            && EVP_PKEY_CTX_set_hkdf_md(context, MessageDigestMethod.of(.sha256).pointer) == 1
            && secret.withUnsafeBufferPointer {
                EVP_PKEY_CTX_set1_hkdf_key(context, $0.baseAddress, Int32($0.count)) == 1
            }
            && (salt.isEmpty
                || salt.withUnsafeBufferPointer {
                    EVP_PKEY_CTX_set1_hkdf_salt(context, $0.baseAddress, Int32($0.count)) == 1
                })
            && (info.isEmpty
                || info.withUnsafeBufferPointer {
                    EVP_PKEY_CTX_add1_hkdf_info(context, $0.baseAddress, Int32($0.count)) == 1
                })
            && output.withUnsafeMutableBufferPointer { EVP_PKEY_derive(context, $0.baseAddress, &written) == 1 }
        guard ok, written == length else { throw OpenSSLErrorQueue.failure(.internalFailure, "EVP_PKEY_derive(HKDF)") }
        return output
    }
}
