internal import COpenSSL

/// `RAND_bytes` and `CRYPTO_memcmp`.
enum OpenSSLRandom {
    /// `count` bytes from OpenSSL's CSPRNG.
    static func bytes(count: Int) throws(CryptoError) -> [UInt8] {
        guard count >= 0, count <= Int(Int32.max) else {
            throw CryptoError(.randomFailure, "requested byte count \(count) is out of range")
        }
        var ok = true
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            if count > 0 {
                ok = RAND_bytes(buffer.baseAddress, Int32(count)) == 1
            }
            if !ok {
                // Never hand out uninitialized memory, even on failure.
                buffer.initialize(repeating: 0)
            }
            initialized = count
        }
        guard ok else { throw OpenSSLErrorQueue.failure(.randomFailure, "RAND_bytes") }
        return bytes
    }

    /// `CRYPTO_memcmp` over two buffers; different lengths are unequal.
    static func constantTimeEquals(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        if a.isEmpty { return true }
        return CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0
    }
}
