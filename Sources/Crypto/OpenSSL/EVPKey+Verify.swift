internal import COpenSSL

extension EVPKey {
    /// Ed25519 or Ed448 verification (RFC 8032 §5.1.7 and §5.2.7, PureEdDSA with an empty context: no
    /// pre-hash, so no message digest method).
    func verifyPureEdDSA(signature: [UInt8], message: [UInt8]) -> Bool {
        digestVerify(signature: signature, message: message, method: nil) { _ in true }
    }

    /// RSA verification with PKCS#1 v1.5 (RFC 8017 §8.2.2) or PSS (RFC 8017 §8.1.2) padding; PSS
    /// uses MGF1 with the message hash and a salt as long as the digest (RFC 8230 §2, COSE PS256…).
    func verifyRSA(signature: [UInt8], message: [UInt8], hash: HashAlgorithm, padding: RSAPadding) -> Bool {
        let method = MessageDigestMethod.of(hash)
        return digestVerify(signature: signature, message: message, method: method) { context in
            Self.configureRSA(context, padding: padding, method: method)
        }
    }

    /// Sets the RSA padding parameters on a signing or verification context.
    static func configureRSA(_ context: OpaquePointer, padding: RSAPadding, method: MessageDigestMethod) -> Bool {
        switch padding {
        case .pkcs1v15:
            return EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PADDING) == 1
        case .pss:
            return EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PSS_PADDING) == 1
                && EVP_PKEY_CTX_set_rsa_mgf1_md(context, method.pointer) == 1
                && EVP_PKEY_CTX_set_rsa_pss_saltlen(context, RSA_PSS_SALTLEN_DIGEST) == 1
        }
    }

    /// One-shot `EVP_DigestVerify` with an optional context configuration step.
    private func digestVerify(
        signature: [UInt8], message: [UInt8], method: MessageDigestMethod?,
        configure: (OpaquePointer) -> Bool
    ) -> Bool {
        guard let context = EVP_MD_CTX_new() else {
            OpenSSLErrorQueue.clear()
            return false
        }
        defer { EVP_MD_CTX_free(context) }
        var keyContext: OpaquePointer?
        guard EVP_DigestVerifyInit(context, &keyContext, method?.pointer, nil, pointer) == 1,
            let keyContext, configure(keyContext)
        else {
            OpenSSLErrorQueue.clear()
            return false
        }
        let verified = signature.withUnsafeBufferPointer { signatureBytes in
            NonNullBytes.with(message) { messageBytes, messageLength in
                EVP_DigestVerify(context, signatureBytes.baseAddress, signatureBytes.count, messageBytes, messageLength)
                    == 1
            }
        }
        if !verified { OpenSSLErrorQueue.clear() }
        return verified
    }
}

/// Hands C a non-NULL pointer even for an empty message (some OpenSSL paths reject NULL with length 0).
enum NonNullBytes {
    /// Calls `body` with a pointer to `bytes` (or to a dummy byte when empty) and the length.
    static func with<Result>(_ bytes: [UInt8], _ body: (UnsafePointer<UInt8>, Int) -> Result) -> Result {
        if bytes.isEmpty {
            var dummy: UInt8 = 0
            return withUnsafePointer(to: &dummy) { body($0, 0) }
        }
        return bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else {
                var dummy: UInt8 = 0
                return withUnsafePointer(to: &dummy) { body($0, 0) }
            }
            return body(base, buffer.count)
        }
    }
}
