import Crypto

/// A public signing key as a JWK (RFC 7517 §4, RFC 7518 §6.2): kty "EC", crv "P-256", x, y, kid,
/// use "sig", alg "ES256".
public struct JSONWebKey: Sendable, Hashable {
    /// `kid`.
    public let keyID: String
    /// `x`: the affine X coordinate, 32 bytes (RFC 7518 §6.2.1.2: full length, leading zeros kept).
    public let x: [UInt8]
    /// `y`: the affine Y coordinate, 32 bytes.
    public let y: [UInt8]

    /// The JWK of a P-256 public key.
    /// - Throws: `.unusableKey` for another curve or an empty `kid`.
    public init(keyID: String, publicKey: ECPublicKey) throws(TokenError) {
        guard publicKey.curve == .p256 else { throw TokenError(.unusableKey, "only P-256 keys sign ES256") }
        guard !keyID.isEmpty else { throw TokenError(.unusableKey, "kid must be non-empty") }
        self.keyID = keyID
        self.x = publicKey.x
        self.y = publicKey.y
    }

    /// The JWK JSON object, members sorted.
    public func jsonBytes() -> [UInt8] {
        var writer = JSONObjectWriter()
        writer.set("kty", .string("EC"))
        writer.set("crv", .string("P-256"))
        writer.set("x", .string(Base64URL.encode(x)))
        writer.set("y", .string(Base64URL.encode(y)))
        writer.set("kid", .string(keyID))
        // RFC 7517 §4.2 / §4.4: public key use and intended algorithm.
        writer.set("use", .string("sig"))
        writer.set("alg", .string(JWSHeader.es256))
        return writer.bytes()
    }
}
