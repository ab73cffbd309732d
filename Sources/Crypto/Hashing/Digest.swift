/// One-shot message digests (OpenSSL's SHA functions, see `MessageDigestMethod.digest(_:into:)`).
public enum Digest {
    /// SHA-256 of `bytes` (32 bytes).
    public static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        hash(bytes, using: .sha256)
    }

    /// The digest of `bytes` under `algorithm`; the result has `algorithm.digestByteCount` bytes.
    public static func hash(_ bytes: [UInt8], using algorithm: HashAlgorithm) -> [UInt8] {
        MessageDigestMethod.of(algorithm).digest(bytes)
    }

    /// The digest of `bytes` under `algorithm`, written to the start of `output` (at least
    /// `algorithm.digestByteCount` bytes); returns the bytes written.
    public static func hash(
        _ bytes: [UInt8], using algorithm: HashAlgorithm, into output: UnsafeMutableRawBufferPointer
    ) -> Int {
        MessageDigestMethod.of(algorithm).digest(bytes, into: output)
    }
}
