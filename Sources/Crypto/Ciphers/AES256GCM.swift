internal import COpenSSL

/// AES-256-GCM (NIST SP 800-38D) through OpenSSL's EVP interface: authenticated encryption of small secrets at rest
/// (the token-signing keys' private halves). 96-bit nonces, 128-bit tags.
///
/// `seal` draws a fresh random nonce for every message; with random nonces one key must seal well under 2^32
/// messages (SP 800-38D §8.3), which a key-encryption key protecting a handful of keys never approaches.
public struct AES256GCM: Sendable {
    /// The key length, in bytes.
    public static let keyByteCount = 32
    /// The nonce length, in bytes.
    public static let nonceByteCount = 12
    /// The tag length, in bytes.
    public static let tagByteCount = 16

    /// The key's contexts, keyed once and copied per message.
    private let contexts: AESGCMKeyedContexts

    /// A cipher under `key` (32 bytes).
    /// - Throws: `.invalidKey` for any other length; `.internalFailure` when OpenSSL cannot set the key up.
    public init(key: [UInt8]) throws(CryptoError) {
        self.contexts = try AESGCMKeyedContexts(key: key)
    }

    /// Encrypts `plaintext` and authenticates it with `associatedData`: nonce ‖ ciphertext ‖ tag.
    public func seal(_ plaintext: [UInt8], associatedData: [UInt8]) throws(CryptoError) -> [UInt8] {
        try seal(plaintext, associatedData: associatedData, nonce: try SecureRandom.bytes(count: Self.nonceByteCount))
    }

    /// `seal` with a given nonce: for known-answer tests only (a nonce must never repeat under one key).
    func seal(_ plaintext: [UInt8], associatedData: [UInt8], nonce: [UInt8]) throws(CryptoError) -> [UInt8] {
        let (ciphertext, tag) = try run(encrypting: true, nonce: nonce, input: plaintext, aad: associatedData, tag: nil)
        return nonce + ciphertext + tag
    }

    /// Decrypts what `seal` returned, if its tag verifies under this key and `associatedData`.
    /// - Throws: `.authenticationFailed` when it does not (or the input is shorter than a nonce and a tag).
    public func open(_ sealed: [UInt8], associatedData: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard sealed.count >= Self.nonceByteCount + Self.tagByteCount else {
            throw CryptoError(
                .authenticationFailed, "AES-GCM input of \(sealed.count) bytes is shorter than nonce + tag")
        }
        let nonce = Array(sealed.prefix(Self.nonceByteCount))
        let tag = Array(sealed.suffix(Self.tagByteCount))
        let ciphertext = Array(sealed.dropFirst(Self.nonceByteCount).dropLast(Self.tagByteCount))
        return try run(encrypting: false, nonce: nonce, input: ciphertext, aad: associatedData, tag: tag).output
    }

    /// One EVP pass: encrypts (returning the tag) or decrypts (checking `tag`).
    private func run(encrypting: Bool, nonce: [UInt8], input: [UInt8], aad: [UInt8], tag: [UInt8]?)
        throws(CryptoError) -> (output: [UInt8], tag: [UInt8])
    {
        try contexts.withCopy(encrypting: encrypting, nonce: nonce) {
            (context) throws(CryptoError) -> (output: [UInt8], tag: [UInt8]) in
            try run(context, encrypting: encrypting, input: input, aad: aad, tag: tag)
        }
    }

    /// The EVP pass proper on `context`, already keyed and given its nonce.
    private func run(_ context: OpaquePointer, encrypting: Bool, input: [UInt8], aad: [UInt8], tag: [UInt8]?)
        throws(CryptoError) -> (output: [UInt8], tag: [UInt8])
    {
        var length: Int32 = 0
        if !aad.isEmpty {
            guard EVP_CipherUpdate(context, nil, &length, aad, Int32(aad.count)) == 1 else {
                throw OpenSSLErrorQueue.failure(.internalFailure, "EVP_CipherUpdate (associated data)")
            }
        }
        var output = [UInt8](repeating: 0, count: input.count + 16)
        var written: Int32 = 0
        if !input.isEmpty {
            guard EVP_CipherUpdate(context, &output, &written, input, Int32(input.count)) == 1 else {
                throw OpenSSLErrorQueue.failure(.internalFailure, "EVP_CipherUpdate")
            }
        }
        if var expected = tag {
            guard
                EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, Int32(Self.tagByteCount), &expected) == 1
            else { throw OpenSSLErrorQueue.failure(.internalFailure, "EVP_CTRL_GCM_SET_TAG") }
        }
        var finalLength: Int32 = 0
        let finished = output.withUnsafeMutableBufferPointer { buffer in
            EVP_CipherFinal_ex(context, buffer.baseAddress.map { $0 + Int(written) }, &finalLength)
        }
        guard finished == 1 else {
            guard encrypting else {
                // SP 800-38D §7.2: the tag did not verify; nothing of the plaintext is returned.
                OpenSSLErrorQueue.clear()
                throw CryptoError(.authenticationFailed, "AES-GCM tag does not verify")
            }
            throw OpenSSLErrorQueue.failure(.internalFailure, "EVP_CipherFinal_ex")
        }
        output.removeSubrange(Int(written + finalLength)...)
        guard encrypting else { return (output, []) }
        var produced = [UInt8](repeating: 0, count: Self.tagByteCount)
        guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, Int32(Self.tagByteCount), &produced) == 1 else {
            throw OpenSSLErrorQueue.failure(.internalFailure, "EVP_CTRL_GCM_GET_TAG")
        }
        return (output, produced)
    }
}
