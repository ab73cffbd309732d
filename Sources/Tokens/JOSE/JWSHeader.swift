/// The protected header of a compact JWS (RFC 7515 §4) as this module writes and reads it.
public struct JWSHeader: Sendable, Hashable {
    /// ECDSA P-256 with SHA-256 (RFC 7518 §3.4): access tokens by default, and ID tokens on request.
    public static let es256 = "ES256"
    /// RSASSA-PKCS1-v1_5 with SHA-256 (RFC 7518 §3.3): OIDC Core §15.1's default ID token algorithm.
    public static let rs256 = "RS256"
    /// RSASSA-PKCS1-v1_5 with SHA-384 (RFC 7518 §3.3): a client's assertions only, when its JWK says so.
    public static let rs384 = "RS384"
    /// RSASSA-PSS with SHA-256, MGF1 and a 32-byte salt (RFC 7518 §3.5): a client's assertions only, when its JWK says
    /// so.
    public static let ps256 = "PS256"

    /// `alg`.
    public let algorithm: String
    /// `kid`: which key of the JWKS signed.
    public let keyID: String?
    /// `typ`: the token's media type (RFC 7515 §4.1.9).
    public let type: String?
    /// Whether the header carried `crit` (RFC 7515 §4.1.11); we understand no extension, so it is refused.
    let hasCritical: Bool

    init(algorithm: String, keyID: String?, type: String?, hasCritical: Bool = false) {
        self.algorithm = algorithm
        self.keyID = keyID
        self.type = type
        self.hasCritical = hasCritical
    }

    /// `{"alg":…,"kid":…,"typ":…}`.
    func bytes() -> [UInt8] {
        var writer = JSONObjectWriter()
        writer.set("alg", .string(algorithm))
        writer.set("kid", keyID.map { .string($0) })
        writer.set("typ", type.map { .string($0) })
        return writer.bytes()
    }
}

extension JWSHeader: Decodable {
    private enum CodingKeys: String, CodingKey { case alg, kid, typ, crit }

    /// Reads `alg` (required), `kid`, `typ`; notes `crit`. Other members are ignored (RFC 7515 §4).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.algorithm = try container.decode(String.self, forKey: .alg)
        self.keyID = try container.decodeIfPresent(String.self, forKey: .kid)
        self.type = try container.decodeIfPresent(String.self, forKey: .typ)
        self.hasCritical = container.contains(.crit)
    }
}
