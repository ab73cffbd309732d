import Crypto
import JSON

/// The public key a DPoP proof carries in its `jwk` header (RFC 9449 §4.2): P-256 for ES256, Ed25519 for EdDSA.
public enum DPoPProofKey: Sendable, Equatable {
    /// `{"kty":"EC","crv":"P-256","x":…,"y":…}` (RFC 7518 §6.2.1).
    case p256(ECPublicKey)
    /// `{"kty":"OKP","crv":"Ed25519","x":…}` (RFC 8037 §2).
    case ed25519(Ed25519PublicKey)

    /// Reads the `jwk` header value.
    /// - Throws: `.dpopInvalidKey` for a private key (RFC 9449 §4.3 check 7), another key type or curve, or
    ///   coordinates of the wrong length or off the curve.
    init(jwk: JSONValue) throws(TokenError) {
        guard jwk.objectMembers != nil else { throw TokenError(.dpopInvalidKey, "jwk is not an object") }
        // RFC 9449 §4.3 check 7: the jwk header MUST NOT contain a private key.
        if let secret = JSONWebKey.privateMember(of: jwk) {
            throw TokenError(.dpopInvalidKey, "jwk holds the private member \(secret)")
        }
        func coordinate(_ name: String) throws(TokenError) -> [UInt8] {
            guard let bytes = JSONWebKey.base64URLMember(name, of: jwk) else {
                throw TokenError(.dpopInvalidKey, "jwk \(name) is not base64url")
            }
            return bytes
        }
        switch (jwk["kty"]?.stringValue, jwk["crv"]?.stringValue) {
        case ("EC", "P-256"):
            do {
                self = .p256(try ECPublicKey(curve: .p256, x: try coordinate("x"), y: try coordinate("y")))
            } catch let error as TokenError {
                throw error
            } catch {
                throw TokenError(.dpopInvalidKey, "jwk is not a P-256 point: \(error)")
            }
        case ("OKP", "Ed25519"):
            do {
                self = .ed25519(try Ed25519PublicKey(rawRepresentation: try coordinate("x")))
            } catch let error as TokenError {
                throw error
            } catch {
                throw TokenError(.dpopInvalidKey, "jwk is not an Ed25519 key: \(error)")
            }
        case (let kty, let crv):
            throw TokenError(.dpopInvalidKey, "jwk kty \(kty ?? "(none)") crv \(crv ?? "(none)") is not supported")
        }
    }

    /// The JWS `alg` that goes with the key (RFC 7518 §3.4, RFC 8037 §3.1).
    var algorithm: String {
        switch self {
        case .p256: JWSHeader.es256
        case .ed25519: DPoPProofVerifier.edDSA
        }
    }

    /// The RFC 7638 thumbprint, the `jkt` that binds tokens to this key (RFC 9449 §6.1).
    public var thumbprint: String {
        switch self {
        case .p256(let key): JWKThumbprint.of(key)
        case .ed25519(let key): JWKThumbprint.of(key)
        }
    }
}
