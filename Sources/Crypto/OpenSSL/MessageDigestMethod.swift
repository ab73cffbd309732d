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
    /// The algorithm (for a failure's message).
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

    /// Digests `bytes` into a new array (`EVP_Digest`, which fails only when OpenSSL cannot allocate its context).
    func digest(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var ok: Int32 = 0
        let digest = [UInt8](unsafeUninitializedCapacity: byteCount) { output, initialized in
            ok = EVP_Digest(bytes.baseAddress, bytes.count, output.baseAddress, nil, pointer, nil)
            initialized = byteCount
        }
        precondition(ok == 1, "\(algorithm) digest failed: \(OpenSSLErrorQueue.drain())")
        return digest
    }
}
