import Crypto
import Foundation
import Testing

@testable import Tokens

@Suite("JWTSigner: compact JWS with ES256")
struct JWTSignerTests {
    @Test("header is {alg:ES256,kid,typ}, signature is 64-byte r‖s over the signing input")
    func shape() throws {
        let key = try P256SigningKey()
        let token = try JWTSigner(key: key, keyID: "k1").sign(TokenFixtures.accessClaims())
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3)
        let header = try #require(Base64URL.decode(parts[0]))
        #expect(TokenFixtures.text(header) == #"{"alg":"ES256","kid":"k1","typ":"at+jwt"}"#)
        let signature = try #require(Base64URL.decode(parts[2]))
        #expect(signature.count == 64)
        let der = try ECDSASignature.derRepresentation(fromRaw: signature, curve: .p256)
        #expect(key.publicKey.isValidSignature(der, for: Array((parts[0] + "." + parts[1]).utf8), hash: .sha256))
    }

    @Test("payload is the claims' deterministic JSON")
    func payload() throws {
        let claims = TokenFixtures.accessClaims()
        let token = try JWTSigner(key: try P256SigningKey(), keyID: "k1").sign(claims)
        let segment = token.split(separator: ".")[1]
        #expect(Base64URL.decode(segment) == (try claims.payload()))
    }

    @Test("claims that break their rules are refused before signing")
    func invalidClaims() throws {
        let signer = JWTSigner(key: try P256SigningKey(), keyID: "k1")
        var claims = TokenFixtures.accessClaims()
        claims.subject = ""
        #expect(throws: TokenError(.invalidClaim, "")) { try signer.sign(claims) }
    }
}
