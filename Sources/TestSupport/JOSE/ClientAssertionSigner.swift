import Crypto
import Foundation
import JSON

/// Signs client assertions (RFC 7523 §3) as a `private_key_jwt` client does, with any header and claims, so that tests
/// can send well-formed ones and each defect on purpose. Independent of the server's own signer.
public struct ClientAssertionSigner: Sendable {
    /// The client's key.
    public enum Key: Sendable {
        case p256(P256SigningKey)
        case rsa(RSASigningKey)
    }

    public let key: Key

    public init(_ key: Key) {
        self.key = key
    }

    /// The key's public JWK (RFC 7517), with `kid` when given: what the client's `jwks` lists.
    public func publicJWK(keyID: String? = nil) -> JSONValue {
        var members: [JSONMember]
        switch key {
        case .p256(let key):
            members = [
                JSONMember(key: "kty", value: "EC"), JSONMember(key: "crv", value: "P-256"),
                JSONMember(key: "x", value: .string(Base64URL.encode(key.publicKey.x))),
                JSONMember(key: "y", value: .string(Base64URL.encode(key.publicKey.y))),
            ]
        case .rsa(let key):
            members = [
                JSONMember(key: "kty", value: "RSA"),
                JSONMember(key: "n", value: .string(Base64URL.encode(key.publicKey.modulus))),
                JSONMember(key: "e", value: .string(Base64URL.encode(key.publicKey.exponent))),
            ]
        }
        if let keyID { members.append(JSONMember(key: "kid", value: .string(keyID))) }
        return .object(members)
    }

    /// The usual claims of `clientID`'s assertion for `audience`: `iss` and `sub` the client, `exp` a minute after
    /// `now`, `iat` `now`, a random `jti`.
    public static func claims(clientID: String, audience: String, now: Date) -> [String: JSONValue] {
        [
            "iss": .string(clientID), "sub": .string(clientID), "aud": .string(audience),
            "iat": .number(String(Int(now.timeIntervalSince1970))),
            "exp": .number(String(Int(now.timeIntervalSince1970) + 60)), "jti": .string(UUID().uuidString),
        ]
    }

    /// A compact JWS of `claims` with header `alg` (the key's: ES256 or RS256, or `algorithm`), `kid` and `typ` when
    /// given.
    public func sign(
        _ claims: [String: JSONValue], keyID: String? = nil, type: String? = nil, algorithm: String? = nil
    ) throws -> String {
        var header = [JSONMember(key: "alg", value: .string(algorithm ?? defaultAlgorithm))]
        if let keyID { header.append(JSONMember(key: "kid", value: .string(keyID))) }
        if let type { header.append(JSONMember(key: "typ", value: .string(type))) }
        let payload = JSONValue.object(
            claims.sorted { $0.key < $1.key }.map { JSONMember(key: $0.key, value: $0.value) })
        let input =
            Base64URL.encode(JSONValue.object(header).serialized()) + "." + Base64URL.encode(payload.serialized())
        let signature: [UInt8]
        switch key {
        case .p256(let key):
            signature = try ECDSASignature.rawRepresentation(
                fromDER: try key.signature(for: Array(input.utf8)), curve: .p256)
        case .rsa(let key):
            // RFC 7518 §3.3 (RS256, RS384) and §3.5 (PS256).
            let (hash, padding): (HashAlgorithm, RSAPadding) =
                switch algorithm {
                case "RS384": (.sha384, .pkcs1v15)
                case "PS256": (.sha256, .pss)
                default: (.sha256, .pkcs1v15)
                }
            signature = try key.signature(for: Array(input.utf8), hash: hash, padding: padding)
        }
        return input + "." + Base64URL.encode(signature)
    }

    private var defaultAlgorithm: String {
        switch key {
        case .p256: "ES256"
        case .rsa: "RS256"
        }
    }
}
