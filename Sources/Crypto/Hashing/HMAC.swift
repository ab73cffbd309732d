/// Keyed message authentication codes (RFC 2104), computed by OpenSSL.
public enum HMAC {
    /// HMAC-SHA-256 of `message` under `key` (32 bytes).
    /// - Throws: `.invalidKey` for an empty key, `.internalFailure` when OpenSSL cannot compute it (allocation).
    public static func sha256(key: some Collection<UInt8>, message: some Collection<UInt8>) throws(CryptoError)
        -> [UInt8]
    {
        let keyBytes = Array(key)
        let messageBytes = Array(message)
        let result = keyBytes.withUnsafeBytes { keyBuffer in
            messageBytes.withUnsafeBytes { messageBuffer in
                Result { () throws(CryptoError) in
                    try MessageDigestMethod.of(.sha256).hmac(key: keyBuffer, message: messageBuffer)
                }
            }
        }
        return try result.get()
    }
}
