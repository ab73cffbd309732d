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

    /// `bytes` followed by their own digest under `algorithm`, built in one allocation: WebAuthn's signed data
    /// is `authenticatorData || SHA-256(clientDataJSON)` (L3 §7.1 step 20, §7.2 step 21), so this is called as
    /// `Digest.appending(hashOf: clientDataJSON, to: authenticatorData)`.
    public static func appending(
        hashOf hashed: [UInt8], to prefix: [UInt8], using algorithm: HashAlgorithm = .sha256
    ) -> [UInt8] {
        let method = MessageDigestMethod.of(algorithm)
        return [UInt8](unsafeUninitializedCapacity: prefix.count + method.byteCount) { output, initialized in
            _ = output.initialize(fromContentsOf: prefix)
            let tail = UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: output[prefix.count...]))
            initialized = prefix.count + method.digest(hashed, into: tail)
        }
    }
}
