import Crypto
import Foundation
import Testing

@testable import Tokens

@Suite("ActionTokenClaims: one approved action, five minutes at most")
struct ActionTokenClaimsTests {
    static let action = Array(#"{"amount":"200 EUR","to":"X","type":"transfer"}"#.utf8)

    static func claims(lifetime: TimeInterval = 300, action: [UInt8] = action) -> ActionTokenClaims {
        ActionTokenClaims(
            issuer: TokenFixtures.issuer, subject: "user-1", audience: "https://bank.example", clientID: "app",
            jwtID: "jti-9", issuedAt: TokenFixtures.now, expiresAt: TokenFixtures.now.addingTimeInterval(lifetime),
            authorizationDetail: action, deviceKeyID: "dk-1")
    }

    @Test("authorization_details is a one-element array holding the action bytes verbatim")
    func payload() throws {
        let text = TokenFixtures.text(try Self.claims().payload())
        #expect(
            text
                == #"{"aud":"https://bank.example","#
                + #""authorization_details":[{"amount":"200 EUR","to":"X","type":"transfer"}],"#
                + #""client_id":"app","device_key_id":"dk-1","exp":1800000300,"iat":1800000000,"#
                + #""iss":"https://id.example","#
                + #""jti":"jti-9","sub":"user-1"}"#)
        #expect(ActionTokenClaims.type == "action+jwt")
    }

    @Test("a lifetime over five minutes, or not positive, is refused", arguments: [301.0, 0.0, -10.0])
    func lifetime(seconds: TimeInterval) {
        #expect(throws: TokenError(.invalidLifetime, "")) { try Self.claims(lifetime: seconds).payload() }
    }

    @Test(
        "an action that is not an object with a string type is refused",
        arguments: [
            "[]", #"{"kind":"x"}"#, #"{"type":1}"#, #"{"type":"t""#, "",
        ])
    func badAction(text: String) {
        #expect(throws: TokenError(.invalidClaim, "")) { try Self.claims(action: Array(text.utf8)).payload() }
    }

    @Test("empty identifiers are refused")
    func identifiers() {
        var claims = Self.claims()
        claims.deviceKeyID = ""
        #expect(throws: TokenError(.invalidClaim, "")) { try claims.payload() }
        claims = Self.claims()
        claims.audience = ""
        #expect(throws: TokenError(.invalidClaim, "")) { try claims.payload() }
    }

    @Test("an action token is never accepted where an access token is expected")
    func explicitTyping() throws {
        let key = try Crypto.P256SigningKey()
        let token = try JWTSigner(key: key, keyID: "k1").sign(Self.claims())
        let verifier = JWTVerifier(keys: ["k1": key.publicKey])
        #expect(throws: TokenError(.unexpectedType, "")) {
            try verifier.verify(token, expecting: TokenFixtures.expectations(audience: "https://bank.example"))
        }
        _ = try verifier.verify(
            token, expecting: TokenFixtures.expectations(type: ActionTokenClaims.type, audience: "https://bank.example")
        )
    }
}
