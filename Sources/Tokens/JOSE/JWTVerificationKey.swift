import Crypto

/// A published key that verifies JWS signatures, with the one algorithm it verifies (RFC 8725 §3.1: the key, not
/// the token's header, decides the algorithm).
public enum JWTVerificationKey: Sendable, Equatable {
    /// A P-256 key: ES256 (RFC 7518 §3.4).
    case es256(ECPublicKey)
    /// An RSA key of at least 2048 bits: RS256 (RFC 7518 §3.3).
    case rs256(RSAPublicKey)
    /// An RSA key of at least 2048 bits whose JWK says RS384 (RFC 7518 §3.3): a client's assertion key.
    case rs384(RSAPublicKey)
    /// An RSA key of at least 2048 bits whose JWK says PS256 (RFC 7518 §3.5): a client's assertion key.
    case ps256(RSAPublicKey)

    /// The `alg` this key verifies.
    public var algorithm: String {
        switch self {
        case .es256: JWSHeader.es256
        case .rs256: JWSHeader.rs256
        case .rs384: JWSHeader.rs384
        case .ps256: JWSHeader.ps256
        }
    }
}
