import Crypto
import JSON

extension JWTVerificationKey {
    /// A public JWK (RFC 7517 §4) as the key it verifies with: `{"kty":"RSA","n","e"}` (RFC 7518 §6.3.1, at least
    /// 2048 bits) for RS256, or for RS384 or PS256 when its `alg` says so (Auth0's Private Key JWT algorithms);
    /// `{"kty":"EC","crv":"P-256","x","y"}` (§6.2.1) for ES256. `alg`, when present, must be an algorithm of the key's
    /// type, and `use`, when present, `sig` (RFC 7517 §4.2, §4.4).
    /// - Throws: `.unusableKey` naming what is wrong.
    public init(jwk: JSONValue) throws(TokenError) {
        guard jwk.objectMembers != nil else { throw TokenError(.unusableKey, "a JWK is not an object") }
        // A configured client key must be public: a private one does not belong in the server's configuration.
        if let secret = JSONWebKey.privateMember(of: jwk) {
            throw TokenError(.unusableKey, "the JWK holds the private member \(secret): give the public key only")
        }
        func bytes(_ name: String) throws(TokenError) -> [UInt8] {
            guard let bytes = JSONWebKey.base64URLMember(name, of: jwk) else {
                throw TokenError(.unusableKey, "the JWK's \(name) is not base64url")
            }
            return bytes
        }
        switch (jwk["kty"]?.stringValue, jwk["crv"]?.stringValue) {
        case ("RSA", _):
            let key: RSAPublicKey
            do {
                key = try RSAPublicKey(modulus: try bytes("n"), exponent: try bytes("e"))
            } catch let error as TokenError {
                throw error
            } catch {
                throw TokenError(.unusableKey, "the JWK is not a usable RSA key: \(error)")
            }
            try JWTSigner.checkRSAKeySize(key)
            switch jwk["alg"]?.stringValue {
            case JWSHeader.rs384: self = .rs384(key)
            case JWSHeader.ps256: self = .ps256(key)
            default: self = .rs256(key)
            }
        case ("EC", "P-256"):
            do {
                self = .es256(try ECPublicKey(curve: .p256, x: try bytes("x"), y: try bytes("y")))
            } catch let error as TokenError {
                throw error
            } catch {
                throw TokenError(.unusableKey, "the JWK is not a P-256 point: \(error)")
            }
        case (let kty, let crv):
            throw TokenError(
                .unusableKey, "kty \(kty ?? "(none)") crv \(crv ?? "(none)"): only RSA and EC P-256 keys verify")
        }
        if let algorithm = jwk["alg"] {
            guard algorithm.stringValue == self.algorithm else {
                throw TokenError(
                    .unusableKey, "the JWK's alg is not an algorithm of its key type (RS256, RS384, PS256 or ES256)")
            }
        }
        if let use = jwk["use"], use.stringValue != "sig" {
            throw TokenError(.unusableKey, "the JWK's use is not sig")
        }
    }
}

extension JWTVerificationKey {
    /// The key of a DER SubjectPublicKeyInfo (RFC 5280 §4.1.2.7; a PEM `PUBLIC KEY` block): RSA of at least 2048 bits
    /// (RS256) or EC P-256 (ES256).
    /// - Throws: `.unusableKey` for another key type, curve or size, or DER that does not parse.
    public init(subjectPublicKeyInfo der: [UInt8]) throws(TokenError) {
        if let rsa = try? RSAPublicKey(derRepresentation: der) {
            try JWTSigner.checkRSAKeySize(rsa)
            self = .rs256(rsa)
        } else if let ec = try? ECPublicKey(derRepresentation: der), ec.curve == .p256 {
            self = .es256(ec)
        } else {
            throw TokenError(.unusableKey, "not an RSA or P-256 public key (SubjectPublicKeyInfo)")
        }
    }

    /// The key's RFC 7638 thumbprint: how a client key configured without `kid` is named.
    public var thumbprint: String {
        switch self {
        case .es256(let key): JWKThumbprint.of(key)
        case .rs256(let key), .rs384(let key), .ps256(let key): JWKThumbprint.of(key)
        }
    }
}
