/// Comparisons whose running time does not depend on where two secrets differ.
public enum ConstantTime {
    /// Whether `a` and `b` are equal, compared with `CRYPTO_memcmp`. A length mismatch returns
    /// `false` immediately: lengths are not secret in any of our uses (tokens and MACs have fixed sizes).
    @inlinable
    public static func equals(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        a.withContiguousBytes { a in b.withContiguousBytes { b in equals(bytes: a, b) } }
    }

    /// `equals` on the bytes where they lie.
    @usableFromInline
    static func equals(bytes a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        OpenSSLRandom.constantTimeEquals(a, b)
    }
}
