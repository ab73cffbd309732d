/// One-shot message digests (OpenSSL's `EVP_Digest`).
public enum Digest {
    /// SHA-256 of `bytes` (32 bytes).
    @inlinable
    public static func sha256(_ bytes: some Collection<UInt8>) -> [UInt8] {
        hash(bytes, using: .sha256)
    }

    /// The digest of `bytes` under `algorithm`; the result has `algorithm.digestByteCount` bytes.
    @inlinable
    public static func hash(_ bytes: some Collection<UInt8>, using algorithm: HashAlgorithm) -> [UInt8] {
        bytes.withContiguousBytes { hash(bytes: $0, using: algorithm) }
    }

    /// `hash` on the bytes where they lie.
    @usableFromInline
    static func hash(bytes: UnsafeRawBufferPointer, using algorithm: HashAlgorithm) -> [UInt8] {
        MessageDigestMethod.of(algorithm).digest(bytes)
    }
}
