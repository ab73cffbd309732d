/// Keyed message authentication (RFC 2104 HMAC) over the module's hash functions.
public enum HMAC {
    /// HMAC-`algorithm` of `message` under `key`; `algorithm.digestByteCount` bytes.
    /// - Throws: `.internalFailure` when OpenSSL cannot compute it (allocation, provider).
    public static func authenticationCode(
        for message: [UInt8], key: [UInt8], using algorithm: HashAlgorithm
    ) throws(CryptoError) -> [UInt8] {
        try OpenSSLMAC.hmac(key: key, message: message, algorithm: algorithm)
    }
}
