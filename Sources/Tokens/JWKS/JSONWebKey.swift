import Crypto
import JSON

/// A public signing key as a JWK (RFC 7517 §4): an EC P-256 key (RFC 7518 §6.2: kty "EC", crv, x, y; alg "ES256")
/// or an RSA key (RFC 7518 §6.3: kty "RSA", n, e; alg "RS256"), with kid and use "sig".
public struct JSONWebKey: Sendable, Hashable {
    /// The key material's members.
    enum Material: Sendable, Hashable {
        /// `x`, `y`: the affine coordinates, 32 bytes each (RFC 7518 §6.2.1.2: full length, leading zeros kept).
        case ec(x: [UInt8], y: [UInt8])
        /// `n`, `e`: big-endian, without leading zero bytes (RFC 7518 §6.3.1.1).
        case rsa(modulus: [UInt8], exponent: [UInt8])
    }

    /// Members whose presence makes a JWK private (RFC 7518 §6.2.2, §6.3.2, §6.4; RFC 8037 §2): refused wherever a
    /// public key is expected (a DPoP proof's `jwk`, a client's `jwks`).
    static let privateMembers: Set<String> = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"]

    /// The first private member of `jwk`'s, if any.
    static func privateMember(of jwk: JSONValue) -> String? {
        jwk.objectMembers?.first(where: { privateMembers.contains($0.key) })?.key
    }

    /// The bytes of `jwk`'s member `name` (a coordinate, `n`, `e`: base64url, RFC 7518 §6), or nil when it is absent,
    /// not a string or not base64url; each reader throws its own error for it.
    static func base64URLMember(_ name: String, of jwk: JSONValue) -> [UInt8]? {
        jwk[name]?.stringValue.flatMap { Base64URL.decode($0) }
    }

    /// `kid`.
    public let keyID: String
    let material: Material
    /// `alg`: ES256 or RS256 by the key's type, unless a client's RSA key is another's (`JWTVerificationKey`).
    private var algorithm: String?

    /// The JWK of a P-256 public key.
    /// - Throws: `.unusableKey` for another curve or an empty `kid`.
    public init(keyID: String, publicKey: ECPublicKey) throws(TokenError) {
        guard publicKey.curve == .p256 else { throw TokenError(.unusableKey, "only P-256 keys sign ES256") }
        guard !keyID.isEmpty else { throw TokenError(.unusableKey, "kid must be non-empty") }
        self.keyID = keyID
        self.material = .ec(x: publicKey.x, y: publicKey.y)
    }

    /// The JWK of an RSA public key (RS256).
    /// - Throws: `.unusableKey` for a modulus under 2048 bits or an empty `kid`.
    public init(keyID: String, publicKey: RSAPublicKey) throws(TokenError) {
        try JWTSigner.checkRSAKeySize(publicKey)
        guard !keyID.isEmpty else { throw TokenError(.unusableKey, "kid must be non-empty") }
        self.keyID = keyID
        self.material = .rsa(modulus: publicKey.modulus, exponent: publicKey.exponent)
    }

    /// The JWK of a verification key.
    public init(keyID: String, key: JWTVerificationKey) throws(TokenError) {
        switch key {
        case .es256(let publicKey): try self.init(keyID: keyID, publicKey: publicKey)
        case .rs256(let publicKey): try self.init(keyID: keyID, publicKey: publicKey)
        case .rs384(let publicKey), .ps256(let publicKey):
            try self.init(keyID: keyID, publicKey: publicKey)
            algorithm = key.algorithm
        }
    }

    /// The JWK JSON object, members sorted.
    public func jsonBytes() -> [UInt8] {
        var writer = JSONObjectWriter()
        switch material {
        case .ec(let x, let y):
            writer.set("kty", .string("EC"))
            writer.set("crv", .string("P-256"))
            writer.set("x", .string(Base64URL.encode(x)))
            writer.set("y", .string(Base64URL.encode(y)))
            writer.set("alg", .string(algorithm ?? JWSHeader.es256))
        case .rsa(let modulus, let exponent):
            writer.set("kty", .string("RSA"))
            writer.set("n", .string(Base64URL.encode(modulus)))
            writer.set("e", .string(Base64URL.encode(exponent)))
            writer.set("alg", .string(algorithm ?? JWSHeader.rs256))
        }
        writer.set("kid", .string(keyID))
        // RFC 7517 §4.2 / §4.4: public key use and intended algorithm.
        writer.set("use", .string("sig"))
        return writer.bytes()
    }
}
