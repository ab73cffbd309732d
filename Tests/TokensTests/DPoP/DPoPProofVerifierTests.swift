import Crypto
import Foundation
import Testing

@testable import Tokens

/// RFC 9449 §4.3: a valid proof, then one change per check, each refused with that check's own code.
@Suite("DPoPProofVerifier: every RFC 9449 §4.3 check has its own refusal")
struct DPoPProofVerifierTests {
    typealias Fixture = DPoPProofFixture

    private func verify(_ proof: String, _ expectations: DPoPExpectations = Fixture.expectations()) throws(TokenError)
        -> VerifiedDPoPProof
    {
        try DPoPProofVerifier().verify(proof, expecting: expectations)
    }

    private func expectRefusal(
        _ code: TokenError.Code, _ proof: String, _ expectations: DPoPExpectations = Fixture.expectations(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(throws: TokenError(code, ""), sourceLocation: sourceLocation) { try verify(proof, expectations) }
    }

    @Test("valid ES256 and EdDSA proofs give the key's RFC 7638 thumbprint, jti and iat")
    func valid() throws {
        for key in [try Fixture.Key.p256(P256SigningKey()), .ed25519(try Ed25519SigningKey())] {
            let fixture = try Fixture(key: key)
            let verified = try verify(try fixture.compact())
            #expect(verified.thumbprint == key.thumbprint)
            #expect(verified.jwtID == "jti-1")
            #expect(verified.issuedAt == Fixture.now)
        }
    }

    @Test("check 2: not one well-formed JWS is dpop_malformed")
    func malformed() throws {
        let proof = try Fixture().compact()
        let parts = proof.split(separator: ".").map(String.init)
        expectRefusal(.dpopMalformed, parts[0] + "." + parts[1])
        expectRefusal(.dpopMalformed, proof + ".x")
        expectRefusal(.dpopMalformed, "!!." + parts[1] + "." + parts[2])
        expectRefusal(.dpopMalformed, Base64URL.encode(Array("[1]".utf8)) + "." + parts[1] + "." + parts[2])
        expectRefusal(.dpopMalformed, String(repeating: "a", count: DPoPProofVerifier.maxProofLength + 1))
        // Two values for one claim: the parser refuses duplicates (two readers must not disagree).
        var twice = try Fixture()
        twice.claims.append(("jti", #""jti-2""#))
        expectRefusal(.dpopMalformed, try twice.compact())
    }

    @Test("check 3: each required header parameter and claim missing or mistyped is dpop_missing_claim")
    func missing() throws {
        for name in ["typ", "alg", "jwk"] {
            var fixture = try Fixture()
            fixture.header(name, nil)
            expectRefusal(.dpopMissingClaim, try fixture.compact())
        }
        for name in ["jti", "htm", "htu", "iat"] {
            var fixture = try Fixture()
            fixture.claim(name, nil)
            expectRefusal(.dpopMissingClaim, try fixture.compact())
        }
        var textIAT = try Fixture()
        textIAT.claim("iat", #""1800000000""#)
        expectRefusal(.dpopMissingClaim, try textIAT.compact())
        var emptyJTI = try Fixture()
        emptyJTI.claim("jti", #""""#)
        expectRefusal(.dpopMissingClaim, try emptyJTI.compact())
        var longJTI = try Fixture()
        longJTI.claim("jti", "\"\(String(repeating: "j", count: DPoPProofVerifier.maxJWTIDLength + 1))\"")
        expectRefusal(.dpopMissingClaim, try longJTI.compact())
    }

    @Test("check 4: typ other than dpop+jwt is dpop_wrong_type")
    func wrongType() throws {
        for type in ["JWT", "at+jwt", "dpop"] {
            var fixture = try Fixture()
            fixture.header("typ", "\"\(type)\"")
            expectRefusal(.dpopWrongType, try fixture.compact())
        }
        var mediaType = try Fixture()
        mediaType.header("typ", #""application/dpop+jwt""#)
        _ = try verify(try mediaType.compact())
    }

    @Test("check 5: none, a MAC, RSA, alg not fitting the key, or crit is dpop_unsupported_algorithm")
    func algorithm() throws {
        for alg in ["none", "HS256", "RS256", "ES384", "EdDSA"] {
            var fixture = try Fixture()
            fixture.header("alg", "\"\(alg)\"")
            expectRefusal(.dpopUnsupportedAlgorithm, try fixture.compact())
        }
        var ed = try Fixture(key: .ed25519(try Ed25519SigningKey()))
        ed.header("alg", #""ES256""#)
        expectRefusal(.dpopUnsupportedAlgorithm, try ed.compact())
        var critical = try Fixture()
        critical.header("crit", #"["exp"]"#)
        expectRefusal(.dpopUnsupportedAlgorithm, try critical.compact())
    }

    @Test("check 6: a signature by another key than the jwk's is dpop_invalid_signature")
    func signature() throws {
        for other in [try Fixture.Key.p256(P256SigningKey()), .ed25519(try Ed25519SigningKey())] {
            var fixture = try Fixture(key: other)
            let named =
                other.algorithm == "ES256" ? try Fixture.Key.p256(P256SigningKey()) : .ed25519(try Ed25519SigningKey())
            fixture.header("jwk", named.jwk)
            expectRefusal(.dpopInvalidSignature, try fixture.compact())
        }
        let proof = try Fixture().compact()
        expectRefusal(.dpopInvalidSignature, String(proof.dropLast(2)) + (proof.hasSuffix("AA") ? "BA" : "AA"))
    }

    @Test("check 7: a private key in jwk, another key type or curve, or a bad point is dpop_invalid_key")
    func key() throws {
        let signing = try P256SigningKey()
        var withPrivate = try Fixture(key: .p256(signing))
        let jwk = Fixture.Key.p256(signing).jwk
        withPrivate.header(
            "jwk", String(jwk.dropLast()) + #","d":"\#(Base64URL.encode([UInt8](repeating: 7, count: 32)))"}"#)
        expectRefusal(.dpopInvalidKey, try withPrivate.compact())
        let others = [
            #"{"kty":"RSA","n":"AQAB","e":"AQAB"}"#, #"{"kty":"EC","crv":"P-384","x":"AA","y":"AA"}"#,
            #"{"kty":"EC","crv":"P-256","x":"AAAA","y":"AAAA"}"#, #"{"kty":"oct","k":"AAAA"}"#,
            #"{"kty":"EC","crv":"P-256","x":"\#(Base64URL.encode([UInt8](repeating: 1, count: 32)))","y":"\#(Base64URL.encode([UInt8](repeating: 1, count: 32)))"}"#,
        ]
        for other in others {
            var fixture = try Fixture()
            fixture.header("jwk", other)
            expectRefusal(.dpopInvalidKey, try fixture.compact())
        }
    }

    @Test("check 8: htm other than the request's method is dpop_method_mismatch")
    func method() throws {
        let proof = try Fixture().compact()
        expectRefusal(.dpopMethodMismatch, proof, Fixture.expectations(method: "GET"))
        var lower = try Fixture()
        lower.claim("htm", #""post""#)
        expectRefusal(.dpopMethodMismatch, try lower.compact())
    }

    @Test("check 9: htu is compared without query and fragment, after RFC 3986 normalisation")
    func targetURI() throws {
        for accepted in [
            "https://id.example/oauth/token?x=1#f", "HTTPS://ID.Example:443/oauth/token",
            "https://id.example/oauth/./x/../token", "https://id.example/%6Fauth/token",
        ] {
            var fixture = try Fixture()
            fixture.claim("htu", "\"\(accepted)\"")
            _ = try verify(try fixture.compact())
        }
        for refused in [
            "https://id.example/oauth/revoke", "http://id.example/oauth/token", "https://other.example/oauth/token",
            "https://id.example:8443/oauth/token", "https://user@id.example/oauth/token", "/oauth/token",
            "https://id.example/oauth/token/", "https://id.example/oauth/%ZZ",
        ] {
            var fixture = try Fixture()
            fixture.claim("htu", "\"\(refused)\"")
            expectRefusal(.dpopURIMismatch, try fixture.compact())
        }
    }

    @Test("check 10: with a server nonce required, a missing or stale nonce is dpop_nonce_required")
    func nonce() throws {
        let expectations = Fixture.expectations(acceptedNonces: ["n-current", "n-previous"])
        expectRefusal(.dpopNonceRequired, try Fixture().compact(), expectations)
        var stale = try Fixture()
        stale.claim("nonce", #""n-older""#)
        expectRefusal(.dpopNonceRequired, try stale.compact(), expectations)
        for current in ["n-current", "n-previous"] {
            var fixture = try Fixture()
            fixture.claim("nonce", "\"\(current)\"")
            _ = try verify(try fixture.compact(), expectations)
        }
    }

    @Test("check 11: iat outside the window either way is dpop_stale")
    func issuedAt() throws {
        let proof = try Fixture().compact()
        _ = try verify(proof, Fixture.expectations(now: Fixture.now.addingTimeInterval(60)))
        _ = try verify(proof, Fixture.expectations(now: Fixture.now.addingTimeInterval(-60)))
        expectRefusal(.dpopStale, proof, Fixture.expectations(now: Fixture.now.addingTimeInterval(61)))
        expectRefusal(.dpopStale, proof, Fixture.expectations(now: Fixture.now.addingTimeInterval(-61)))
    }

    @Test("check 12: with an access token, ath missing or not its SHA-256 is dpop_access_token_hash")
    func accessTokenHash() throws {
        let token = "Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU"
        let expectations = Fixture.expectations(accessToken: token)
        expectRefusal(.dpopAccessTokenHash, try Fixture().compact(), expectations)
        var wrong = try Fixture()
        wrong.claim("ath", "\"\(Base64URL.encode(Digest.sha256(Array("other".utf8))))\"")
        expectRefusal(.dpopAccessTokenHash, try wrong.compact(), expectations)
        // RFC 9449 §7.1's example: this token's ath.
        var right = try Fixture()
        right.claim("ath", #""fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo""#)
        _ = try verify(try right.compact(), expectations)
    }

    @Test("check 13: a key other than the one the token is bound to is dpop_key_mismatch")
    func binding() throws {
        let fixture = try Fixture()
        let proof = try fixture.compact()
        _ = try verify(proof, Fixture.expectations(boundThumbprint: fixture.key.thumbprint))
        let other = try Fixture.Key.p256(P256SigningKey()).thumbprint
        expectRefusal(.dpopKeyMismatch, proof, Fixture.expectations(boundThumbprint: other))
    }

    @Test("RFC 7638 thumbprints: RFC 9449 §6.1's P-256 example and RFC 8037 A.3's Ed25519 example")
    func thumbprints() throws {
        let p256 = try ECPublicKey(
            curve: .p256, x: Base64URL.decode("l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs")!,
            y: Base64URL.decode("9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA")!)
        #expect(JWKThumbprint.of(p256) == "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I")
        let ed25519 = try Ed25519PublicKey(
            rawRepresentation: Base64URL.decode("11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo")!)
        #expect(JWKThumbprint.of(ed25519) == "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k")
    }

    @Test("an access token's cnf.jkt is written and read back (RFC 9449 §6.1)")
    func confirmationClaim() throws {
        var claims = TokenFixtures.accessClaims()
        claims.confirmationThumbprint = "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"
        let payload = String(decoding: try claims.payload(), as: UTF8.self)
        #expect(payload.contains(#""cnf":{"jkt":"0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"}"#))
        let key = try P256SigningKey()
        let token = try JWTSigner(key: key, keyID: "k1").sign(claims)
        let verified = try JWTVerifier(keys: ["k1": key.publicKey]).verify(
            token, expecting: TokenFixtures.expectations())
        #expect(try AccessTokenClaims(verified: verified).confirmationThumbprint == claims.confirmationThumbprint)
    }
}
