import Crypto
import Foundation
import Testing

@testable import Tokens

@Suite("AccessTokenClaims: RFC 9068 payload")
struct AccessTokenClaimsTests {
    @Test("payload has the RFC 9068 claims, sorted, with integer times")
    func payload() throws {
        let text = TokenFixtures.text(try TokenFixtures.accessClaims().payload())
        #expect(
            text == #"{"amr":["hwk","user"],"aud":"https://api.example","auth_time":1799999995,"client_id":"app","#
                + #""exp":1800000600,"iat":1800000000,"iss":"https://id.example","jti":"jti-1","#
                + #""scope":"openid offline_access","sub":"user-1"}"#)
    }

    @Test("several audiences are an array; empty scope and amr are omitted")
    func optionalShapes() throws {
        var claims = TokenFixtures.accessClaims()
        claims.audience = ["a", "b"]
        claims.scope = []
        claims.authenticationMethods = []
        claims.authTime = nil
        let object = TokenFixtures.json(try claims.payload())
        #expect(object["aud"] as? [String] == ["a", "b"])
        #expect(object["scope"] == nil && object["amr"] == nil && object["auth_time"] == nil)
    }

    @Test("empty required claims are refused")
    func requiredClaims() {
        var claims = TokenFixtures.accessClaims()
        claims.audience = []
        #expect(throws: TokenError(.invalidClaim, "")) { try claims.payload() }
    }

    @Test("exp not after iat is refused")
    func lifetime() {
        #expect(throws: TokenError(.invalidLifetime, "")) { try TokenFixtures.accessClaims(lifetime: 0).payload() }
    }

    @Test("a time outside the NumericDate range is refused")
    func numericDateRange() {
        var claims = TokenFixtures.accessClaims()
        claims.expiresAt = Date(timeIntervalSince1970: 1e300)
        #expect(throws: TokenError(.invalidClaim, "")) { try claims.payload() }
    }

    @Test("reading a verified token without client_id, or with a mistyped one, is refused")
    func readingRefusals() throws {
        let key = try P256SigningKey()
        let verifier = JWTVerifier(keys: ["k1": key.publicKey])
        let header = #"{"alg":"ES256","kid":"k1","typ":"at+jwt"}"#
        let withoutClientID =
            #"{"iss":"https://id.example","aud":"https://api.example","sub":"u","exp":1800000600,"#
            + #""iat":1800000000,"jti":"j"}"#
        let verified = try verifier.verify(
            try TokenFixtures.forge(header: header, payload: withoutClientID, key: key),
            expecting: TokenFixtures.expectations())
        #expect(throws: TokenError(.missingClaim, "")) { try AccessTokenClaims(verified: verified) }
        let mistyped =
            #"{"iss":"https://id.example","aud":"https://api.example","sub":"u","exp":1800000600,"#
            + #""iat":1800000000,"jti":"j","client_id":7}"#
        let verified2 = try verifier.verify(
            try TokenFixtures.forge(header: header, payload: mistyped, key: key),
            expecting: TokenFixtures.expectations())
        #expect(throws: TokenError(.invalidClaim, "")) { try AccessTokenClaims(verified: verified2) }
    }

    @Test("sid is written when set, read back from a verified token, and an empty one is refused")
    func sessionID() throws {
        var claims = TokenFixtures.accessClaims()
        #expect(TokenFixtures.json(try claims.payload())["sid"] == nil)
        claims.sessionID = "family-1"
        #expect(TokenFixtures.json(try claims.payload())["sid"] as? String == "family-1")
        let key = try P256SigningKey()
        let token = try JWTSigner(key: key, keyID: "k1").sign(claims)
        let verified = try JWTVerifier(keys: ["k1": key.publicKey]).verify(
            token, expecting: TokenFixtures.expectations())
        #expect(try AccessTokenClaims(verified: verified).sessionID == "family-1")
        claims.sessionID = ""
        #expect(throws: TokenError(.invalidClaim, "")) { try claims.payload() }
    }
}
