internal import COpenSSL

extension MessageDigestMethod {
    /// HMAC (RFC 2104) of `message` under `key` with this digest (OpenSSL's one-shot `HMAC`, which fails only when
    /// OpenSSL cannot allocate its context).
    func hmac(key: UnsafeRawBufferPointer, message: UnsafeRawBufferPointer) throws(CryptoError) -> [UInt8] {
        // RFC 2104 §3: keys shorter than the digest weaken it; an empty one is always a caller's mistake.
        guard let keyAddress = key.baseAddress, !key.isEmpty, key.count <= Int(Int32.max) else {
            throw CryptoError(.invalidKey, "HMAC key must be 1 to 2^31-1 bytes")
        }
        var length: UInt32 = 0
        var ok = false
        let output = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initialized in
            let messageAddress = message.baseAddress?.assumingMemoryBound(to: UInt8.self)
            ok =
                COpenSSL.HMAC(
                    pointer, keyAddress, Int32(key.count), messageAddress, message.count, buffer.baseAddress, &length)
                != nil
            if !ok { buffer.initialize(repeating: 0) }
            initialized = byteCount
        }
        guard ok, Int(length) == byteCount else { throw OpenSSLErrorQueue.failure(.internalFailure, "HMAC") }
        return output
    }
}
