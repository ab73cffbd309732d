/// The module's randomness source: OpenSSL's CSPRNG (`RAND_bytes`). Pure modules that need
/// randomness take it as a parameter; this is the production implementation behind it.
public enum SecureRandom {
    /// Returns `count` cryptographically secure random bytes: short draws (up to
    /// `RandomBlockPool.largestPooledDraw` bytes) from the process's `RandomBlockPool`, longer ones from
    /// `RAND_bytes` directly.
    /// - Throws: `.randomFailure` when `count` is negative or the CSPRNG fails.
    public static func bytes(count: Int) throws(CryptoError) -> [UInt8] {
        guard count >= 0 else {
            throw CryptoError(.randomFailure, "requested byte count \(count) is out of range")
        }
        if count <= RandomBlockPool.largestPooledDraw {
            return try RandomBlockPool.shared.bytes(count: count)
        }
        return try OpenSSLRandom.bytes(count: count)
    }
}
