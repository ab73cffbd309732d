internal import COpenSSL

/// PBKDF2 (RFC 8018 §5.2) with HMAC-SHA-256, computed by OpenSSL (`PKCS5_PBKDF2_HMAC`): the slow hash of
/// secrets a person types (recovery codes).
public enum PBKDF2 {
    /// PBKDF2-HMAC-SHA-256 of `password` with `salt`, `iterations` rounds, `byteCount` bytes of output.
    /// - Throws: `.invalidKey` for an empty salt, fewer than 1,000 iterations (RFC 8018 §4.2's minimum) or an
    ///   output length outside 16…64 bytes; `.internalFailure` when OpenSSL cannot compute it.
    public static func sha256(
        password: some Collection<UInt8>, salt: some Collection<UInt8>, iterations: Int, byteCount: Int = 32
    ) throws(CryptoError) -> [UInt8] {
        let passwordBytes = Array(password)
        let saltBytes = Array(salt)
        guard !saltBytes.isEmpty, saltBytes.count <= 1024, (1_000...10_000_000).contains(iterations),
            (16...64).contains(byteCount), passwordBytes.count <= Int(Int32.max)
        else {
            throw CryptoError(.invalidKey, "PBKDF2 needs a salt, 1,000 to 10,000,000 iterations, 16 to 64 bytes")
        }
        var ok = false
        let method = MessageDigestMethod.of(.sha256)
        let output = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initialized in
            ok = passwordBytes.withUnsafeBufferPointer { passwordBuffer in
                saltBytes.withUnsafeBufferPointer { saltBuffer in
                    passwordBuffer.withMemoryRebound(to: CChar.self) { passwordText in
                        PKCS5_PBKDF2_HMAC(
                            passwordText.baseAddress, Int32(passwordBytes.count), saltBuffer.baseAddress,
                            Int32(saltBytes.count), Int32(iterations), method.pointer, Int32(byteCount),
                            buffer.baseAddress) == 1
                    }
                }
            }
            if !ok { buffer.initialize(repeating: 0) }
            initialized = byteCount
        }
        guard ok else { throw OpenSSLErrorQueue.failure(.internalFailure, "PKCS5_PBKDF2_HMAC") }
        return output
    }
}
