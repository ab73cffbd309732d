internal import COpenSSL

/// One AES-256-GCM key's cipher contexts, keyed once (one to encrypt, one to decrypt) and copied for each message.
///
/// Why: in OpenSSL 3.0 every `EVP_CipherInit_ex` given `EVP_aes_256_gcm()` fetches the cipher from the provider
/// store (locks, name look-ups), makes a provider context and expands the key: together more than half the cost of
/// sealing a short value. `EVP_CIPHER_CTX_copy` duplicates a keyed context (the provider's `dupctx` copies the key
/// schedule) without fetching; the copy is a per-call context that lives and dies inside `withCopy`. The templates
/// themselves are only read after `init` (copying takes them `const`), so one instance serves every thread.
final class AESGCMKeyedContexts: @unchecked Sendable {  // after init the two contexts are only read (copy sources)
    private let encrypting: OpaquePointer
    private let decrypting: OpaquePointer

    /// Contexts keyed with `key`, without a nonce yet. The lengths are checked here, where OpenSSL is handed the
    /// pointers, and nowhere else.
    /// - Throws: `.invalidKey` for a key of any length but `AES256GCM.keyByteCount`; `.internalFailure` when OpenSSL
    ///   cannot allocate or key them.
    init(key: [UInt8]) throws(CryptoError) {
        guard key.count == AES256GCM.keyByteCount else {
            throw CryptoError(.invalidKey, "AES-256-GCM key must be \(AES256GCM.keyByteCount) bytes, got \(key.count)")
        }
        guard let encrypting = Self.keyed(key, mode: 1) else {
            throw OpenSSLErrorQueue.failure(.internalFailure, "EVP_CipherInit_ex (AES-256-GCM, encrypting)")
        }
        guard let decrypting = Self.keyed(key, mode: 0) else {
            EVP_CIPHER_CTX_free(encrypting)
            throw OpenSSLErrorQueue.failure(.internalFailure, "EVP_CipherInit_ex (AES-256-GCM, decrypting)")
        }
        self.encrypting = encrypting
        self.decrypting = decrypting
    }

    deinit {
        // EVP_CIPHER_CTX_free cleanses the key schedule.
        EVP_CIPHER_CTX_free(encrypting)
        EVP_CIPHER_CTX_free(decrypting)
    }

    /// A new context for `mode` (1 encrypt, 0 decrypt) keyed with `key`; `nil` on failure.
    private static func keyed(_ key: [UInt8], mode: Int32) -> OpaquePointer? {
        guard let context = EVP_CIPHER_CTX_new() else { return nil }
        // SP 800-38D §8.2: 96-bit nonces (GCM's default length, set anyway) before the key goes in.
        guard EVP_CipherInit_ex(context, EVP_aes_256_gcm(), nil, nil, nil, mode) == 1,
            EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_IVLEN, Int32(AES256GCM.nonceByteCount), nil) == 1,
            EVP_CipherInit_ex(context, nil, nil, key, nil, mode) == 1
        else {
            EVP_CIPHER_CTX_free(context)
            return nil
        }
        return context
    }

    /// Runs `body` on a fresh copy of the encrypting (or decrypting) context with `nonce` set; the copy is freed
    /// afterwards.
    /// - Throws: `.internalFailure` for a nonce of any length but `AES256GCM.nonceByteCount` (refused before OpenSSL
    ///   reads it) or when OpenSSL cannot copy the context or set the nonce; whatever `body` throws.
    func withCopy<Answer>(
        encrypting: Bool, nonce: [UInt8], _ body: (OpaquePointer) throws(CryptoError) -> Answer
    ) throws(CryptoError) -> Answer {
        guard nonce.count == AES256GCM.nonceByteCount else {
            throw CryptoError(.internalFailure, "AES-GCM nonce must be \(AES256GCM.nonceByteCount) bytes")
        }
        guard let context = EVP_CIPHER_CTX_new() else {
            throw OpenSSLErrorQueue.failure(.internalFailure, "EVP_CIPHER_CTX_new")
        }
        defer { EVP_CIPHER_CTX_free(context) }
        let mode: Int32 = encrypting ? 1 : 0
        guard EVP_CIPHER_CTX_copy(context, encrypting ? self.encrypting : decrypting) == 1,
            EVP_CipherInit_ex(context, nil, nil, nil, nonce, mode) == 1
        else { throw OpenSSLErrorQueue.failure(.internalFailure, "EVP_CIPHER_CTX_copy (AES-256-GCM)") }
        return try body(context)
    }
}
