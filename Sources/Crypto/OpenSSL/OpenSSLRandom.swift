internal import COpenSSL

/// `RAND_bytes` and `CRYPTO_memcmp`.
enum OpenSSLRandom {
    /// `count` bytes from OpenSSL's CSPRNG.
    static func bytes(count: Int) throws(CryptoError) -> [UInt8] {
        try checkDrawable(count)  // before the allocation
        var bytes = [UInt8](repeating: 0, count: count)
        try fill(&bytes)
        return bytes
    }

    /// Overwrites all of `bytes` with output of OpenSSL's CSPRNG; on failure they are all zero (never stale or
    /// uninitialised memory).
    static func fill(_ bytes: inout [UInt8]) throws(CryptoError) {
        try checkDrawable(bytes.count)
        guard !bytes.isEmpty else { return }
        let ok = bytes.withUnsafeMutableBufferPointer { buffer in
            if RAND_bytes(buffer.baseAddress, Int32(buffer.count)) == 1 { return true }
            buffer.update(repeating: 0)
            return false
        }
        guard ok else { throw OpenSSLErrorQueue.failure(.randomFailure, "RAND_bytes") }
    }

    /// Refuses a count `RAND_bytes` cannot take in one call (its length is an `int`).
    private static func checkDrawable(_ count: Int) throws(CryptoError) {
        guard (0...Int(Int32.max)).contains(count) else {
            throw CryptoError(.randomFailure, "requested byte count \(count) is out of range")
        }
    }

    /// `CRYPTO_memcmp` over two buffers; different lengths are unequal.
    static func constantTimeEquals(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        if a.isEmpty { return true }
        return CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0
    }
}
