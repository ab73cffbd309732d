/// An ECDSA public key on P-256, P-384 or P-521, validated on construction (SEC 1 v2 §3.2.2.1: the point
/// is on the curve) and holding its decoded point for OpenSSL.
public struct ECPublicKey: Sendable, Equatable {
    /// The key's curve.
    public let curve: EllipticCurve
    /// The uncompressed SEC 1 point `0x04 || X || Y` (SEC 1 v2 §2.3.3).
    public let x963Representation: [UInt8]
    /// The point decoded and validated once, for verification.
    let key: ECPointObject

    /// SEC 1 v2 §2.3.3: the uncompressed point form's leading octet.
    static let uncompressedPrefix: UInt8 = 0x04

    /// A key from affine coordinates, each exactly `curve.coordinateByteCount` bytes
    /// (RFC 9053 §7.1.1: COSE EC2 `x` and `y` are fixed-length, leading zeros kept).
    /// - Throws: `.invalidKey` for a wrong length or a point not on the curve.
    public init(curve: EllipticCurve, x: some Collection<UInt8>, y: some Collection<UInt8>) throws(CryptoError) {
        let width = curve.coordinateByteCount
        guard x.count == width, y.count == width else {
            throw CryptoError(.invalidKey, "\(curve) coordinates must be \(width) bytes, got \(x.count) and \(y.count)")
        }
        // One allocation for `0x04 || X || Y`.
        var point = [UInt8]()
        point.reserveCapacity(1 + 2 * width)
        point.append(Self.uncompressedPrefix)
        point.append(contentsOf: x)
        point.append(contentsOf: y)
        try self.init(x963Representation: point, curve: curve)
    }

    /// A key from the uncompressed point `0x04 || X || Y`. Compressed points (0x02/0x03) and the
    /// point at infinity are refused: WebAuthn (COSE EC2) and FIDO only use uncompressed points.
    /// - Throws: `.invalidKey` for any other form or length, or a point not on the curve.
    public init(x963Representation: [UInt8], curve: EllipticCurve) throws(CryptoError) {
        let expected = 1 + 2 * curve.coordinateByteCount
        guard x963Representation.count == expected, x963Representation.first == Self.uncompressedPrefix else {
            throw CryptoError(
                .invalidKey,
                "\(curve) key must be an uncompressed point of \(expected) bytes starting 0x04, got \(x963Representation.count) bytes"
            )
        }
        self.key = try ECPointObject(curve: curve, point: x963Representation)
        self.curve = curve
        self.x963Representation = x963Representation
    }

    /// A key from a DER SubjectPublicKeyInfo (RFC 5480 §2) naming one of the supported curves.
    /// - Throws: `.invalidKey` for malformed DER, another key type or a compressed point;
    ///   `.unsupportedAlgorithm` for another curve.
    public init(derRepresentation: [UInt8]) throws(CryptoError) {
        try self.init(subjectPublicKeyInfo: EVPKey.fromSubjectPublicKeyInfo(derRepresentation))
    }

    /// A key from an already-decoded SPKI key; re-imported through the validating path.
    init(subjectPublicKeyInfo parsed: EVPKey) throws(CryptoError) {
        guard parsed.kind == .ec else { throw CryptoError(.invalidKey, "SubjectPublicKeyInfo is not an EC key") }
        guard let groupName = parsed.utf8StringParameter("group"),
            let curve = EllipticCurve(openSSLGroupName: groupName)
        else {
            throw CryptoError(.unsupportedAlgorithm, "EC key is not on P-256, P-384 or P-521")
        }
        guard let point = parsed.octetStringParameter("pub") else {
            throw CryptoError(.invalidKey, "EC key has no public point")
        }
        try self.init(x963Representation: point, curve: curve)
    }

    /// The affine X coordinate (fixed width).
    public var x: [UInt8] { Array(x963Representation[1...curve.coordinateByteCount]) }
    /// The affine Y coordinate (fixed width).
    public var y: [UInt8] { Array(x963Representation[(1 + curve.coordinateByteCount)...]) }

    /// The key as DER SubjectPublicKeyInfo (empty only if OpenSSL cannot allocate the key). Built through an
    /// `EVP_PKEY` on each call: only exports need it.
    public var derRepresentation: [UInt8] {
        (try? ECGroup.of(curve)?.publicKey(point: x963Representation))?.subjectPublicKeyInfo() ?? []
    }

    /// Whether `derSignature` is a valid ECDSA signature of `message` hashed with `hash`.
    /// The signature must be strict DER (minimal encoding, no trailing bytes) with r and s in
    /// [1, n-1]; anything else is `false`, never an error.
    public func isValidSignature(_ derSignature: [UInt8], for message: [UInt8], hash: HashAlgorithm) -> Bool {
        // RFC 3279 §2.2.3 + SEC 1 v2 §4.1.4 step 1 (strict DER, r and s in range) before the math.
        ECDSASignatureCodec.withStrict(derSignature, curve: curve) { signature in
            key.verify(signature, message: message, hash: hash)
        } ?? false
    }

    /// Keys are equal when their curve and point are.
    public static func == (lhs: ECPublicKey, rhs: ECPublicKey) -> Bool {
        lhs.curve == rhs.curve && lhs.x963Representation == rhs.x963Representation
    }
}
