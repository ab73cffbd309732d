import Crypto
import Foundation
import JSON
import Testing

@testable import Tokens

@Suite("IntrospectionResponseClaims: an RFC 9701 signed introspection answer")
struct IntrospectionResponseClaimsTests {
    static let answer = JSONValue.object([
        JSONMember(key: "active", value: .bool(true)), JSONMember(key: "sub", value: .string("user-1")),
        JSONMember(key: "exp", value: .number("1800000300")),
    ])

    static func claims(_ introspection: JSONValue = answer, audience: String = "rs") -> IntrospectionResponseClaims {
        IntrospectionResponseClaims(
            issuer: TokenFixtures.issuer, audience: audience, issuedAt: TokenFixtures.now, introspection: introspection)
    }

    @Test("iss, aud, iat and the answer as token_introspection; no top-level sub or exp (RFC 9701 §5)")
    func payload() throws {
        let text = TokenFixtures.text(try Self.claims().payload())
        #expect(
            text
                == #"{"aud":"rs","iat":1800000000,"iss":"https://id.example","#
                + #""token_introspection":{"active":true,"sub":"user-1","exp":1800000300}}"#)
        #expect(IntrospectionResponseClaims.type == "token-introspection+jwt")
        #expect(IntrospectionResponseClaims.mediaType == "application/token-introspection+jwt")
    }

    @Test(
        "an answer that is not an object with a boolean active is refused",
        arguments: [
            JSONValue.array([]), .object([]), .object([JSONMember(key: "active", value: .string("true"))]),
        ])
    func answerShape(_ introspection: JSONValue) {
        #expect(throws: TokenError(.invalidClaim, "")) { try Self.claims(introspection).payload() }
    }

    @Test("an empty audience is refused")
    func audience() {
        #expect(throws: TokenError(.invalidClaim, "")) { try Self.claims(audience: "").payload() }
    }

    @Test("signed, it carries the token-introspection+jwt type and verifies as the key's JWT")
    func signed() throws {
        let signer = JWTSigner(key: try P256SigningKey(), keyID: "k1")
        let token = try signer.sign(Self.claims())
        let parts = token.split(separator: ".")
        #expect(parts.count == 3)
        let header = try JSONValue(parsing: try #require(Base64URL.decode(parts[0])))
        #expect(header["typ"] == "token-introspection+jwt" && header["alg"] == "ES256" && header["kid"] == "k1")
    }
}
