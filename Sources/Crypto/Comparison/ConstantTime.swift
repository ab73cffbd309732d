/// Comparisons whose running time does not depend on where two secrets differ.
public enum ConstantTime {
    /// Whether `a` and `b` are equal, compared with `CRYPTO_memcmp`. A length mismatch returns
    /// `false` immediately: lengths are not secret in any of our uses (tokens and MACs have fixed sizes).
    public static func equals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        OpenSSLRandom.constantTimeEquals(a[...], b[...])
    }

    /// `equals` on part of a larger buffer (a field read in place), with the same rules.
    public static func equals(_ a: ArraySlice<UInt8>, _ b: [UInt8]) -> Bool {
        OpenSSLRandom.constantTimeEquals(a, b[...])
    }

    /// `equals` on bytes held elsewhere (decoded on the stack), with the same rules.
    package static func equals(_ a: UnsafeBufferPointer<UInt8>, _ b: [UInt8]) -> Bool {
        b.withUnsafeBytes { OpenSSLRandom.constantTimeEquals(UnsafeRawBufferPointer(a), $0) }
    }
}
