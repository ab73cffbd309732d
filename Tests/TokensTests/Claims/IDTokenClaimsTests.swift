import Foundation
import Testing

@testable import Tokens

@Suite("IDTokenClaims: OIDC Core §2 payload")
struct IDTokenClaimsTests {
    static func claims() -> IDTokenClaims {
        IDTokenClaims(
            issuer: TokenFixtures.issuer, subject: "user-1", audience: "app", issuedAt: TokenFixtures.now,
            expiresAt: TokenFixtures.now.addingTimeInterval(3600), authTime: TokenFixtures.now, nonce: "n-0S6",
            authenticationMethods: ["hwk"], email: "a@example.com", emailVerified: true)
    }

    @Test("payload carries what is set, omits what is nil, aud is the client_id")
    func payload() throws {
        let text = TokenFixtures.text(try Self.claims().payload())
        #expect(
            text == #"{"amr":["hwk"],"aud":"app","auth_time":1800000000,"email":"a@example.com","email_verified":true,"#
                + #""exp":1800003600,"iat":1800000000,"iss":"https://id.example","nonce":"n-0S6","sub":"user-1"}"#)
        #expect(IDTokenClaims.type == "JWT")
    }

    @Test("profile claims appear when the caller sets them; strings are JSON-escaped")
    func profile() throws {
        var claims = Self.claims()
        claims.name = "Zoë \"Z\" \\ O'Neil\n"
        claims.phoneNumber = "+33600000000"
        claims.phoneNumberVerified = false
        let object = TokenFixtures.json(try claims.payload())
        #expect(object["name"] as? String == "Zoë \"Z\" \\ O'Neil\n")
        #expect(object["phone_number"] as? String == "+33600000000")
        #expect(object["phone_number_verified"] as? Bool == false)
    }

    @Test("sid, when set, is the session's (OIDC Front-Channel Logout §3); an empty one is refused")
    func sessionID() throws {
        var claims = Self.claims()
        claims.sessionID = "family-1"
        #expect(TokenFixtures.json(try claims.payload())["sid"] as? String == "family-1")
        #expect(TokenFixtures.json(try Self.claims().payload())["sid"] == nil)
        claims.sessionID = ""
        #expect(throws: TokenError(.invalidClaim, "")) { try claims.payload() }
    }

    @Test("empty required claims and a non-positive lifetime are refused")
    func refusals() {
        var claims = Self.claims()
        claims.audience = ""
        #expect(throws: TokenError(.invalidClaim, "")) { try claims.payload() }
        claims = Self.claims()
        claims.expiresAt = claims.issuedAt
        #expect(throws: TokenError(.invalidLifetime, "")) { try claims.payload() }
    }
}
