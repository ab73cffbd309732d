/// HKDF with SHA-256 (RFC 5869): derives keys of a purpose from one secret, over `HMAC.sha256`.
public enum HKDF {
    /// The output of SHA-256, in bytes (`HashLen`).
    private static let hashLength = 32

    /// `length` bytes of output keying material from `secret` (the input keying material), `salt` (none: HashLen
    /// zero bytes, RFC 5869 §2.2) and `info` (the purpose label, binding the key to one use).
    /// - Throws: `.invalidKey` for an empty secret or a length outside 1…255·HashLen (§2.3).
    public static func sha256(secret: [UInt8], salt: [UInt8] = [], info: [UInt8], length: Int) throws(CryptoError)
        -> [UInt8]
    {
        guard !secret.isEmpty else { throw CryptoError(.invalidKey, "HKDF input keying material is empty") }
        guard (1...255 * hashLength).contains(length) else {
            throw CryptoError(.invalidKey, "HKDF output length \(length) is outside 1...\(255 * hashLength)")
        }
        // §2.2 Extract: PRK = HMAC-Hash(salt, IKM).
        let pseudorandomKey = try HMAC.sha256(
            key: salt.isEmpty ? [UInt8](repeating: 0, count: hashLength) : salt, message: secret)
        // §2.3 Expand: T(i) = HMAC-Hash(PRK, T(i-1) | info | i).
        var output: [UInt8] = []
        var block: [UInt8] = []
        var counter: UInt8 = 1
        while output.count < length {
            block = try HMAC.sha256(key: pseudorandomKey, message: block + info + [counter])
            output += block
            counter &+= 1
        }
        return Array(output.prefix(length))
    }
}
