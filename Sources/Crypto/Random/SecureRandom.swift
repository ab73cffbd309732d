/// The module's randomness source: OpenSSL's CSPRNG (`RAND_bytes`). Pure modules that need
/// randomness take it as a parameter; this is the production implementation behind it.
public enum SecureRandom {
    /// Returns `count` cryptographically secure random bytes.
    /// - Throws: `.randomFailure` when `count` is negative or the CSPRNG fails.
    public static func bytes(count: Int) throws(CryptoError) -> [UInt8] {
        try OpenSSLRandom.bytes(count: count)
    }
}
