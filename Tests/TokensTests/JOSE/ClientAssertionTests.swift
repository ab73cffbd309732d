import Crypto
import Foundation
import JSON
import TestSupport
import Testing

@testable import Tokens

/// `private_key_jwt` (RFC 7523 §3, OIDC Core §9): a client's assertion verified with its configured public keys, and
/// the JWKs those keys are read from (RFC 7517, RFC 7518 §6).
@Suite("Client assertions (RFC 7523)")
struct ClientAssertionTests {
    static let ecKey = Result { try P256SigningKey() }
    static let otherECKey = Result { try P256SigningKey() }
    static let rsaKey = Result { try RSASigningKey(bits: 2048) }
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let issuer = "https://id.example.com/"
    static let audiences = [issuer, "https://id.example.com/oauth/token"]

    static func signer() throws -> ClientAssertionSigner { ClientAssertionSigner(.p256(try ecKey.get())) }

    static func claims(_ changes: [String: JSONValue?] = [:]) -> [String: JSONValue] {
        var claims = ClientAssertionSigner.claims(clientID: "machine", audience: issuer, now: now)
        for (name, value) in changes { claims[name] = value }
        return claims
    }

    static func verify(_ token: String, keys: [String: JWTVerificationKey]? = nil) throws -> ClientAssertion {
        try ClientAssertion(
            verifying: token, clientID: "machine", keys: keys ?? ["k1": .es256(try ecKey.get().publicKey)],
            audiences: audiences, now: now)
    }

    static func code(_ code: TokenError.Code) -> TokenError { TokenError(code, "") }

    @Test("an assertion signed by the client's one key verifies with or without kid, untyped or typed")
    func verifies() throws {
        let signer = try Self.signer()
        for (keyID, type) in [(nil, nil), ("k1", "JWT"), (nil, "client-authentication+jwt"), ("k1", "jwt")] {
            let verified = try Self.verify(try signer.sign(Self.claims(["jti": "one"]), keyID: keyID, type: type))
            #expect(verified.jwtID == "one")
            #expect(verified.expiresAt == Self.now.addingTimeInterval(60))
        }
        // Any of the server's names as aud: the token endpoint's, or an array holding one of them.
        _ = try Self.verify(try signer.sign(Self.claims(["aud": .string(Self.audiences[1])])))
        _ = try Self.verify(try signer.sign(Self.claims(["aud": ["https://other.example/", .string(Self.issuer)]])))
    }

    @Test("an RS256 assertion verifies with the client's RSA key named by kid among several")
    func rsa() throws {
        let rsa = try Self.rsaKey.get()
        let keys: [String: JWTVerificationKey] = [
            "ec": .es256(try Self.ecKey.get().publicKey), "rsa": .rs256(rsa.publicKey),
        ]
        let token = try ClientAssertionSigner(.rsa(rsa)).sign(Self.claims(), keyID: "rsa")
        _ = try Self.verify(token, keys: keys)
        // Without kid, a set of several keys names none.
        #expect(throws: Self.code(.unknownKey)) {
            try Self.verify(try ClientAssertionSigner(.rsa(rsa)).sign(Self.claims()), keys: keys)
        }
        // The key decides the algorithm: an RSA key named for an ES256 header verifies nothing.
        #expect(throws: Self.code(.unknownKey)) {
            try Self.verify(try Self.signer().sign(Self.claims(), keyID: "rsa"), keys: keys)
        }
    }

    @Test(
        "each claim RFC 7523 §3 requires is checked",
        arguments: [
            ("iss another client", ["iss": JSONValue.string("other")], TokenError.Code.invalidIssuer),
            ("sub another client", ["sub": .string("other")], .invalidClaim),
            ("sub missing", ["sub": nil], .invalidClaim),
            ("aud another server", ["aud": .string("https://other.example/")], .invalidAudience),
            ("expired", ["exp": .number(String(1_800_000_000 - 120))], .expired),
            ("exp missing", ["exp": nil], .missingClaim),
            ("exp more than an hour ahead", ["exp": .number(String(1_800_000_000 + 3_700))], .invalidLifetime),
            ("jti missing", ["jti": nil], .missingClaim),
            ("jti empty", ["jti": .string("")], .missingClaim),
            ("jti too long", ["jti": .string(String(repeating: "j", count: 257))], .missingClaim),
            ("nbf ahead", ["nbf": .number(String(1_800_000_000 + 600))], .notYetValid),
        ] as [(String, [String: JSONValue?], TokenError.Code)])
    func claims(_ name: String, _ changes: [String: JSONValue?], _ expected: TokenError.Code) throws {
        let token = try Self.signer().sign(Self.claims(changes))
        #expect(throws: Self.code(expected), "\(name)") { try Self.verify(token) }
    }

    @Test("RS384 and PS256 verify with an RSA key whose JWK names them, and only with it (the key decides)")
    func otherRSAAlgorithms() throws {
        let rsa = try Self.rsaKey.get()
        let signer = ClientAssertionSigner(.rsa(rsa))
        let base = signer.publicJWK(keyID: "r")
        for algorithm in ["RS384", "PS256"] {
            let jwk = JSONValue.object((base.objectMembers ?? []) + [JSONMember(key: "alg", value: .string(algorithm))])
            let key = try JWTVerificationKey(jwk: jwk)
            #expect(key.algorithm == algorithm)
            _ = try Self.verify(try signer.sign(Self.claims(), keyID: "r", algorithm: algorithm), keys: ["r": key])
            // An RS256 assertion is refused by a key that says otherwise, and the reverse.
            #expect(throws: Self.code(.unknownKey)) {
                try Self.verify(try signer.sign(Self.claims(), keyID: "r"), keys: ["r": key])
            }
            #expect(throws: TokenError.self) {
                try Self.verify(
                    try signer.sign(Self.claims(), keyID: "r", algorithm: algorithm), keys: ["r": .rs256(rsa.publicKey)]
                )
            }
        }
        // A PS256 signature is not an RS256 one: the same bytes under the other padding do not verify.
        let ps256 = try signer.sign(Self.claims(), keyID: "r", algorithm: "PS256")
        let relabelled = ps256.split(separator: ".").enumerated().map { index, part in
            index == 0 ? Base64URL.encode(Array(#"{"alg":"RS256","kid":"r"}"#.utf8)) : String(part)
        }.joined(separator: ".")
        #expect(throws: Self.code(.invalidSignature)) {
            try Self.verify(relabelled, keys: ["r": .rs256(rsa.publicKey)])
        }
    }

    @Test("another key's signature, another explicit type, alg none or HS256 are refused")
    func header() throws {
        let other = ClientAssertionSigner(.p256(try Self.otherECKey.get()))
        #expect(throws: Self.code(.invalidSignature)) { try Self.verify(try other.sign(Self.claims())) }
        #expect(throws: Self.code(.unexpectedType)) {
            try Self.verify(try Self.signer().sign(Self.claims(), type: "at+jwt"))
        }
        for algorithm in ["none", "HS256", "PS256", "RS384"] {
            #expect(throws: Self.code(.unsupportedAlgorithm)) {
                try Self.verify(try Self.signer().sign(Self.claims(), algorithm: algorithm))
            }
        }
        #expect(throws: Self.code(.unknownKey)) { try Self.verify(try Self.signer().sign(Self.claims(), keyID: "k2")) }
        #expect(ClientAssertion.claimedIssuer(of: try Self.signer().sign(Self.claims())) == "machine")
        #expect(ClientAssertion.claimedIssuer(of: "not.a.jwt") == nil)
    }

    @Test("a public RSA or P-256 JWK is read; private, weak, other-curve or mislabelled ones are refused")
    func jwks() throws {
        let ec = try Self.signer().publicJWK(keyID: "k1")
        #expect(try JWTVerificationKey(jwk: ec) == .es256(try Self.ecKey.get().publicKey))
        let rsa = ClientAssertionSigner(.rsa(try Self.rsaKey.get())).publicJWK()
        #expect(try JWTVerificationKey(jwk: rsa) == .rs256(try Self.rsaKey.get().publicKey))
        func with(_ jwk: JSONValue, _ name: String, _ value: JSONValue) -> JSONValue {
            .object((jwk.objectMembers ?? []).filter { $0.key != name } + [JSONMember(key: name, value: value)])
        }
        #expect(try JWTVerificationKey(jwk: with(ec, "alg", "ES256")).algorithm == "ES256")
        #expect(try JWTVerificationKey(jwk: with(rsa, "use", "sig")).algorithm == "RS256")
        // A 1024-bit modulus (odd, top bit set).
        let weak = with(rsa, "n", .string(Base64URL.encode([0xC1] + Array(repeating: 0x55, count: 126) + [0x01])))
        for (name, jwk) in [
            ("private", with(ec, "d", "AAAA")), ("alg of the other type", with(ec, "alg", "RS256")),
            ("RSA named ES256", with(rsa, "alg", "ES256")), ("RS512", with(rsa, "alg", "RS512")),
            ("use enc", with(rsa, "use", "enc")), ("P-384", with(ec, "crv", "P-384")), ("oct", with(ec, "kty", "oct")),
            ("1024-bit RSA", weak), ("not an object", "key"), ("x not base64url", with(ec, "x", "***")),
        ] {
            #expect(throws: Self.code(.unusableKey), "\(name)") { try JWTVerificationKey(jwk: jwk) }
        }
    }
}
