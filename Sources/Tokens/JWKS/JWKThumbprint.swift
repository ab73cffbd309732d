import Crypto

/// RFC 7638 JWK thumbprints: base64url(SHA-256) of the key's required members, sorted, without whitespace
/// (§3.2), written by the same deterministic writer as every other JOSE object here.
public enum JWKThumbprint {
    /// The thumbprint of an EC key: `{"crv":"P-256","kty":"EC","x":…,"y":…}` (RFC 7638 §3.2, RFC 7518 §6.2.1).
    public static func of(_ key: ECPublicKey) -> String {
        var writer = JSONObjectWriter()
        writer.set("crv", .string(curveName(key.curve)))
        writer.set("kty", .string("EC"))
        writer.set("x", .string(Base64URL.encode(key.x)))
        writer.set("y", .string(Base64URL.encode(key.y)))
        return Base64URL.encode(Digest.sha256(writer.bytes()))
    }

    /// The thumbprint of an RSA key: `{"e":…,"kty":"RSA","n":…}` (RFC 7638 §3.2, RFC 7518 §6.3.1).
    public static func of(_ key: RSAPublicKey) -> String {
        var writer = JSONObjectWriter()
        writer.set("e", .string(Base64URL.encode(key.exponent)))
        writer.set("kty", .string("RSA"))
        writer.set("n", .string(Base64URL.encode(key.modulus)))
        return Base64URL.encode(Digest.sha256(writer.bytes()))
    }

    /// The thumbprint of an Ed25519 key: `{"crv":"Ed25519","kty":"OKP","x":…}` (RFC 7638 §3.2, RFC 8037 §2).
    public static func of(_ key: Ed25519PublicKey) -> String {
        var writer = JSONObjectWriter()
        writer.set("crv", .string("Ed25519"))
        writer.set("kty", .string("OKP"))
        writer.set("x", .string(Base64URL.encode(key.rawRepresentation)))
        return Base64URL.encode(Digest.sha256(writer.bytes()))
    }

    /// RFC 7518 §6.2.1.1 `crv` names.
    static func curveName(_ curve: EllipticCurve) -> String {
        switch curve {
        case .p256: "P-256"
        case .p384: "P-384"
        case .p521: "P-521"
        }
    }
}
