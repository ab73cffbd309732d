internal import COpenSSL

/// HMAC through OpenSSL 3's one-shot `EVP_Q_mac`.
enum OpenSSLMAC {
    /// HMAC-`algorithm` of `message` under `key` (RFC 2104).
    static func hmac(key: [UInt8], message: [UInt8], algorithm: HashAlgorithm) throws(CryptoError) -> [UInt8] {
        let name: StaticString =
            switch algorithm {
            case .sha1: "SHA1"
            case .sha256: "SHA256"
            case .sha384: "SHA384"
            case .sha512: "SHA512"
            }
        let count = algorithm.digestByteCount
        var written = 0
        var ok = false
        let mac = [UInt8](unsafeUninitializedCapacity: count) { output, initialized in
            key.withUnsafeBytes { key in
                message.withUnsafeBufferPointer { message in
                    ok =
                        EVP_Q_mac(
                            nil, CStringText.of("HMAC"), nil, CStringText.of(name), nil, key.baseAddress, key.count,
                            message.baseAddress, message.count, output.baseAddress, count, &written) != nil
                }
            }
            if !ok { output.initialize(repeating: 0) }
            initialized = count
        }
        guard ok, written == count else { throw OpenSSLErrorQueue.failure(.internalFailure, "EVP_Q_mac") }
        return mac
    }
}
