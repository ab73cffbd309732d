import Crypto
import Foundation

@testable import Tokens

/// A DPoP proof built member by member, so that each test changes one thing of a valid proof.
struct DPoPProofFixture {
    /// The key that signs (and whose public half the `jwk` names, unless a test replaces it).
    enum Key {
        case p256(P256SigningKey)
        case ed25519(Ed25519SigningKey)

        /// The public JWK as JSON text.
        var jwk: String {
            switch self {
            case .p256(let key):
                #"{"kty":"EC","crv":"P-256","x":"\#(Base64URL.encode(key.publicKey.x))","y":"\#(Base64URL.encode(key.publicKey.y))"}"#
            case .ed25519(let key):
                #"{"kty":"OKP","crv":"Ed25519","x":"\#(Base64URL.encode(key.publicKey.rawRepresentation))"}"#
            }
        }

        var algorithm: String {
            switch self {
            case .p256: "ES256"
            case .ed25519: "EdDSA"
            }
        }

        func sign(_ input: [UInt8]) throws -> [UInt8] {
            switch self {
            case .p256(let key):
                try ECDSASignature.rawRepresentation(fromDER: key.signature(for: input), curve: .p256)
            case .ed25519(let key): try key.signature(for: input)
            }
        }

        var thumbprint: String {
            switch self {
            case .p256(let key): JWKThumbprint.of(key.publicKey)
            case .ed25519(let key): JWKThumbprint.of(key.publicKey)
            }
        }
    }

    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let targetURI = "https://id.example/oauth/token"

    var key: Key
    /// Header members: name and raw JSON value, in order; `nil` value drops the member.
    var header: [(String, String)]
    /// Payload members, likewise.
    var claims: [(String, String)]

    /// A valid proof for POST https://id.example/oauth/token at `now`.
    init(key: Key? = nil, jti: String = "jti-1") throws {
        let key = try key ?? .p256(P256SigningKey())
        self.key = key
        header = [("typ", #""dpop+jwt""#), ("alg", "\"\(key.algorithm)\""), ("jwk", key.jwk)]
        claims = [
            ("jti", "\"\(jti)\""), ("htm", #""POST""#), ("htu", "\"\(Self.targetURI)\""),
            ("iat", String(Int(Self.now.timeIntervalSince1970))),
        ]
    }

    /// Sets (or, with `nil`, removes) a header member.
    mutating func header(_ name: String, _ raw: String?) { Self.set(&header, name, raw) }
    /// Sets (or, with `nil`, removes) a claim.
    mutating func claim(_ name: String, _ raw: String?) { Self.set(&claims, name, raw) }

    private static func set(_ members: inout [(String, String)], _ name: String, _ raw: String?) {
        members.removeAll { $0.0 == name }
        if let raw { members.append((name, raw)) }
    }

    private static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    /// The compact JWS, signed by `key`.
    func compact() throws -> String {
        let input =
            Base64URL.encode(Array(Self.object(header).utf8)) + "." + Base64URL.encode(Array(Self.object(claims).utf8))
        return input + "." + Base64URL.encode(try key.sign(Array(input.utf8)))
    }

    /// The expectations of the valid proof's request.
    static func expectations(
        method: String = "POST", targetURI: String = targetURI, now: Date = now, acceptedNonces: [String]? = nil,
        accessToken: String? = nil, boundThumbprint: String? = nil
    ) -> DPoPExpectations {
        DPoPExpectations(
            method: method, targetURI: targetURI, now: now, window: 60, acceptedNonces: acceptedNonces,
            accessToken: accessToken, boundThumbprint: boundThumbprint)
    }
}
