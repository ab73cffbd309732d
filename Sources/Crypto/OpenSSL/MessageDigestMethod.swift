internal import COpenSSL

/// Owner of one fetched `EVP_MD`. Fetched once per algorithm, so the hot path (signature
/// verification) does not repeat OpenSSL 3's implicit algorithm fetch on every call.
final class MessageDigestMethod: @unchecked Sendable {  // immutable after init; EVP_MD is read-only and thread-safe
    /// The `EVP_MD *` (fetched, owned) or the static legacy method when the fetch failed (borrowed).
    let pointer: OpaquePointer
    /// Whether `pointer` came from `EVP_MD_fetch` and must be released.
    private let isFetched: Bool
    /// The digest size in bytes.
    let byteCount: Int
    /// The algorithm, which picks the one-shot function `digest(_:into:)` runs.
    private let algorithm: HashAlgorithm

    private init(_ algorithm: HashAlgorithm, name: StaticString, fallback: OpaquePointer, byteCount: Int) {
        if let fetched = EVP_MD_fetch(nil, CStringText.of(name), nil) {
            pointer = fetched
            isFetched = true
        } else {
            OpenSSLErrorQueue.clear()
            pointer = fallback
            isFetched = false
        }
        self.byteCount = byteCount
        self.algorithm = algorithm
    }

    deinit {
        if isFetched { EVP_MD_free(pointer) }
    }

    private static let sha1 = MessageDigestMethod(.sha1, name: "SHA1", fallback: EVP_sha1(), byteCount: 20)
    private static let sha256 = MessageDigestMethod(.sha256, name: "SHA256", fallback: EVP_sha256(), byteCount: 32)
    private static let sha384 = MessageDigestMethod(.sha384, name: "SHA384", fallback: EVP_sha384(), byteCount: 48)
    private static let sha512 = MessageDigestMethod(.sha512, name: "SHA512", fallback: EVP_sha512(), byteCount: 64)

    /// The shared method for `algorithm`.
    static func of(_ algorithm: HashAlgorithm) -> MessageDigestMethod {
        switch algorithm {
        case .sha1: sha1
        case .sha256: sha256
        case .sha384: sha384
        case .sha512: sha512
        }
    }

    /// Digests `bytes` into a new array.
    func digest(_ bytes: [UInt8]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: byteCount) { output, initialized in
            initialized = digest(bytes, into: UnsafeMutableRawBufferPointer(output))
        }
    }

    /// Digests `bytes` into `output` (at least `byteCount` bytes); returns the bytes written.
    /// One-shot digests run on a context on the stack (COpenSSL's shim says why not `EVP_Digest`); the
    /// low-level functions fail only on a null pointer, which no input can cause.
    func digest(_ bytes: [UInt8], into output: UnsafeMutableRawBufferPointer) -> Int {
        digest(bytes, followedBy: UnsafeRawBufferPointer(start: nil, count: 0), into: output)
    }

    /// Digests `bytes` followed by `suffix` (their concatenation, never built) into `output`; returns the bytes
    /// written.
    func digest(
        _ bytes: [UInt8], followedBy suffix: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer
    ) -> Int {
        precondition(output.count >= byteCount, "digest buffer too small")
        let out = output.baseAddress?.assumingMemoryBound(to: UInt8.self)
        let (tail, tailCount) = (suffix.baseAddress, suffix.count)
        let ok = bytes.withUnsafeBytes { input in
            switch algorithm {
            case .sha1: COpenSSL_sha1(input.baseAddress, input.count, tail, tailCount, out)
            case .sha256: COpenSSL_sha256(input.baseAddress, input.count, tail, tailCount, out)
            case .sha384: COpenSSL_sha384(input.baseAddress, input.count, tail, tailCount, out)
            case .sha512: COpenSSL_sha512(input.baseAddress, input.count, tail, tailCount, out)
            }
        }
        precondition(ok == 1, "\(algorithm) digest failed: \(OpenSSLErrorQueue.drain())")
        return byteCount
    }
}
