/// An RSA public key, holding its OpenSSL key.
///
/// Policy: the modulus must be at least 1024 bits (TPM and older attestation roots still use
/// 1024/2048-bit keys; anything smaller is forgeable) and at most 16384 bits (OpenSSL's own limit);
/// the exponent must be odd, greater than 1 and at most 64 bits (RFC 8017 §3.1).
public struct RSAPublicKey: Sendable, Equatable {
    /// Smallest accepted modulus size in bits.
    public static let minimumModulusBits = 1024
    /// Largest accepted modulus size in bits (OPENSSL_RSA_MAX_MODULUS_BITS).
    public static let maximumModulusBits = 16384

    /// The modulus n, big-endian, without leading zero bytes.
    public let modulus: [UInt8]
    /// The public exponent e, big-endian, without leading zero bytes.
    public let exponent: [UInt8]
    /// The cached OpenSSL key.
    let key: EVPKey

    /// A key from big-endian modulus and exponent (COSE RSA `n` and `e`, RFC 8230 §4; TPM `unique`).
    /// Leading zero bytes are ignored.
    /// - Throws: `.invalidKey` when the modulus or exponent violates the policy above.
    public init(modulus: [UInt8], exponent: [UInt8]) throws(CryptoError) {
        let n = Array(modulus.drop { $0 == 0 })
        let e = Array(exponent.drop { $0 == 0 })
        let modulusBits = Self.bitLength(n)
        guard modulusBits >= Self.minimumModulusBits, modulusBits <= Self.maximumModulusBits else {
            throw CryptoError(
                .invalidKey,
                "RSA modulus is \(modulusBits) bits; accepted: \(Self.minimumModulusBits)…\(Self.maximumModulusBits)")
        }
        // RFC 8017 §3.1: e is an odd integer with 3 <= e <= n - 1.
        guard let last = e.last, last & 1 == 1, e.count <= 8, e != [1], n.last.map({ $0 & 1 == 1 }) == true else {
            throw CryptoError(.invalidKey, "RSA exponent must be odd, > 1 and <= 64 bits, modulus odd")
        }
        self.key = try EVPKey.rsaPublicKey(modulus: n, exponent: e)
        self.modulus = n
        self.exponent = e
    }

    /// A key from a DER SubjectPublicKeyInfo (RFC 3279 §2.3.1, rsaEncryption).
    /// - Throws: `.invalidKey` for malformed DER, another key type or a weak key.
    public init(derRepresentation: [UInt8]) throws(CryptoError) {
        try self.init(subjectPublicKeyInfo: EVPKey.fromSubjectPublicKeyInfo(derRepresentation))
    }

    /// A key from an already-decoded SPKI key; re-imported through the validating path.
    init(subjectPublicKeyInfo parsed: EVPKey) throws(CryptoError) {
        guard parsed.kind == .rsa, let n = parsed.bigNumberParameter("n"), let e = parsed.bigNumberParameter("e")
        else {
            throw CryptoError(.invalidKey, "SubjectPublicKeyInfo is not an rsaEncryption key")
        }
        try self.init(modulus: n, exponent: e)
    }

    /// The modulus length in bytes (k in RFC 8017): every signature has exactly this length.
    public var modulusByteCount: Int { modulus.count }

    /// The key as DER SubjectPublicKeyInfo.
    public var derRepresentation: [UInt8] { key.subjectPublicKeyInfo() }

    /// Whether `signature` is a valid RSA signature of `message` hashed with `hash` under `padding`.
    public func isValidSignature(
        _ signature: [UInt8], for message: [UInt8], hash: HashAlgorithm, padding: RSAPadding
    ) -> Bool {
        // RFC 8017 §8.1.2 step 1 / §8.2.2 step 1: the signature is exactly k bytes.
        guard signature.count == modulusByteCount else { return false }
        return key.verifyRSA(signature: signature, message: message, hash: hash, padding: padding)
    }

    /// The modulus's length in bits.
    public var modulusBits: Int { Self.bitLength(modulus) }

    /// Bit length of a big-endian magnitude without leading zero bytes.
    private static func bitLength(_ bytes: [UInt8]) -> Int {
        guard let first = bytes.first else { return 0 }
        return (bytes.count - 1) * 8 + (8 - first.leadingZeroBitCount)
    }

    /// Keys are equal when their modulus and exponent are.
    public static func == (lhs: RSAPublicKey, rhs: RSAPublicKey) -> Bool {
        lhs.modulus == rhs.modulus && lhs.exponent == rhs.exponent
    }
}
