import Crypto
import Foundation
import JSON
import Testing

@testable import Tokens

@Suite("JWTVerifier: every refusal has its own code")
struct JWTVerifierTests {
    struct Setup {
        let key: P256SigningKey
        let verifier: JWTVerifier
        let signer: JWTSigner

        init() throws {
            key = try P256SigningKey()
            signer = JWTSigner(key: key, keyID: "k1")
            verifier = JWTVerifier(keys: ["k1": key.publicKey])
        }

        func verify(_ token: String, _ expectations: JWTExpectations = TokenFixtures.expectations()) throws(TokenError)
            -> VerifiedJWT
        {
            try verifier.verify(token, expecting: expectations)
        }

        /// A token with the standard header and a hand-written payload.
        func forge(payload: String, header: String = #"{"alg":"ES256","kid":"k1","typ":"at+jwt"}"#) throws -> String {
            try TokenFixtures.forge(header: header, payload: payload, key: key)
        }
    }

    static let payload =
        #"{"iss":"https://id.example","aud":"https://api.example","sub":"u","exp":1800000600,"iat":1800000000}"#

    @Test("sign → verify round trip gives the registered claims and the raw payload")
    func roundTrip() throws {
        let setup = try Setup()
        let claims = TokenFixtures.accessClaims()
        let verified = try setup.verify(try setup.signer.sign(claims))
        #expect(verified.issuer == TokenFixtures.issuer)
        #expect(verified.subject == "user-1")
        #expect(verified.audience == [TokenFixtures.audience])
        #expect(verified.expiresAt == TokenFixtures.now.addingTimeInterval(600))
        #expect(verified.issuedAt == TokenFixtures.now)
        #expect(verified.jwtID == "jti-1")
        #expect(verified.header.keyID == "k1")
        #expect(verified.rawPayload == (try claims.payload()))
        #expect(try AccessTokenClaims(verified: verified) == claims)
    }

    @Test("a hand-forged valid token verifies (the forging helper itself is sound)")
    func forgedValid() throws {
        let setup = try Setup()
        _ = try setup.verify(try setup.forge(payload: Self.payload))
    }

    @Test("alg none is refused, with or without a signature")
    func algNone() throws {
        let setup = try Setup()
        let header = Base64URL.encode(Array(#"{"alg":"none","kid":"k1","typ":"at+jwt"}"#.utf8))
        let body = Base64URL.encode(Array(Self.payload.utf8))
        #expect(throws: TokenError(.unsupportedAlgorithm, "")) { try setup.verify(header + "." + body + ".") }
        #expect(throws: TokenError(.unsupportedAlgorithm, "")) {
            try setup.verify(
                try setup.forge(payload: Self.payload, header: #"{"alg":"none","kid":"k1","typ":"at+jwt"}"#))
        }
    }

    @Test(
        "other algorithms (HS256 confusion, ES384, lowercase es256, PS256) are refused",
        arguments: ["HS256", "ES384", "es256", "PS256"])
    func otherAlgorithms(alg: String) throws {
        let setup = try Setup()
        #expect(throws: TokenError(.unsupportedAlgorithm, "")) {
            try setup.verify(
                try setup.forge(payload: Self.payload, header: #"{"alg":"\#(alg)","kid":"k1","typ":"at+jwt"}"#))
        }
    }

    @Test("a crit header is refused")
    func crit() throws {
        let setup = try Setup()
        #expect(throws: TokenError(.unsupportedAlgorithm, "")) {
            try setup.verify(
                try setup.forge(
                    payload: Self.payload, header: #"{"alg":"ES256","crit":["exp"],"kid":"k1","typ":"at+jwt"}"#))
        }
    }

    @Test("an unknown or missing kid is refused")
    func unknownKid() throws {
        let setup = try Setup()
        #expect(throws: TokenError(.unknownKey, "")) {
            try setup.verify(
                try setup.forge(payload: Self.payload, header: #"{"alg":"ES256","kid":"k2","typ":"at+jwt"}"#))
        }
        #expect(throws: TokenError(.unknownKey, "")) {
            try setup.verify(try setup.forge(payload: Self.payload, header: #"{"alg":"ES256","typ":"at+jwt"}"#))
        }
    }

    @Test("a token signed by another key under a known kid is refused")
    func wrongKey() throws {
        let setup = try Setup()
        let stranger = JWTSigner(key: try P256SigningKey(), keyID: "k1")
        #expect(throws: TokenError(.invalidSignature, "")) {
            try setup.verify(try stranger.sign(TokenFixtures.accessClaims()))
        }
    }

    @Test("a tampered payload is refused")
    func tamperedPayload() throws {
        let setup = try Setup()
        let token = try setup.signer.sign(TokenFixtures.accessClaims())
        var parts = token.split(separator: ".").map(String.init)
        var payload = TokenFixtures.text(try #require(Base64URL.decode(parts[1])))
        payload = payload.replacingOccurrences(of: "user-1", with: "user-2")
        parts[1] = Base64URL.encode(Array(payload.utf8))
        #expect(throws: TokenError(.invalidSignature, "")) { try setup.verify(parts.joined(separator: ".")) }
    }

    @Test("a DER signature, a short signature or a zero signature is refused")
    func badSignatureEncodings() throws {
        let setup = try Setup()
        let token = try setup.signer.sign(TokenFixtures.accessClaims())
        let input = token.split(separator: ".").prefix(2).joined(separator: ".")
        let der = try setup.key.signature(for: Array(input.utf8))
        for signature in [der, [UInt8](repeating: 1, count: 63), [UInt8](repeating: 0, count: 64)] {
            #expect(throws: TokenError(.invalidSignature, "")) {
                try setup.verify(input + "." + Base64URL.encode(signature))
            }
        }
    }

    @Test("the wrong typ is refused; case and the application/ prefix do not matter")
    func type() throws {
        let setup = try Setup()
        let idToken = try setup.forge(payload: Self.payload, header: #"{"alg":"ES256","kid":"k1","typ":"JWT"}"#)
        #expect(throws: TokenError(.unexpectedType, "")) { try setup.verify(idToken) }
        let untyped = try setup.forge(payload: Self.payload, header: #"{"alg":"ES256","kid":"k1"}"#)
        #expect(throws: TokenError(.unexpectedType, "")) { try setup.verify(untyped) }
        _ = try setup.verify(
            try setup.forge(payload: Self.payload, header: #"{"alg":"ES256","kid":"k1","typ":"application/AT+JWT"}"#))
    }

    @Test("an expired token is refused beyond the leeway, accepted within it")
    func expired() throws {
        let setup = try Setup()
        let token = try setup.signer.sign(TokenFixtures.accessClaims(lifetime: 600))
        _ = try setup.verify(token, TokenFixtures.expectations(now: TokenFixtures.now.addingTimeInterval(629)))
        #expect(throws: TokenError(.expired, "")) {
            try setup.verify(token, TokenFixtures.expectations(now: TokenFixtures.now.addingTimeInterval(630)))
        }
    }

    @Test("nbf in the future is refused")
    func notBefore() throws {
        let setup = try Setup()
        let payload = #"{"iss":"https://id.example","aud":"https://api.example","exp":1800000600,"nbf":1800000100}"#
        #expect(throws: TokenError(.notYetValid, "")) { try setup.verify(try setup.forge(payload: payload)) }
    }

    @Test("iat in the future is refused")
    func issuedInFuture() throws {
        let setup = try Setup()
        let token = try setup.signer.sign(
            TokenFixtures.accessClaims(issuedAt: TokenFixtures.now.addingTimeInterval(31)))
        #expect(throws: TokenError(.issuedInFuture, "")) { try setup.verify(token) }
    }

    @Test("the wrong issuer is refused")
    func issuer() throws {
        let setup = try Setup()
        let token = try setup.signer.sign(TokenFixtures.accessClaims())
        #expect(throws: TokenError(.invalidIssuer, "")) {
            try setup.verify(token, TokenFixtures.expectations(issuer: "https://evil.example"))
        }
    }

    @Test("the wrong audience is refused; an aud array containing ours is accepted")
    func audience() throws {
        let setup = try Setup()
        let token = try setup.signer.sign(TokenFixtures.accessClaims())
        #expect(throws: TokenError(.invalidAudience, "")) {
            try setup.verify(token, TokenFixtures.expectations(audience: "https://other.example"))
        }
        let many = #"{"iss":"https://id.example","aud":["x","https://api.example"],"exp":1800000600}"#
        #expect(try setup.verify(try setup.forge(payload: many)).audience == ["x", "https://api.example"])
        let none = #"{"iss":"https://id.example","exp":1800000600}"#
        #expect(throws: TokenError(.invalidAudience, "")) { try setup.verify(try setup.forge(payload: none)) }
    }

    @Test("anyAudience: the issuer's token whatever its aud (revocation); issuer, type and expiry still checked")
    func anyAudience() throws {
        let setup = try Setup()
        let token = try setup.signer.sign(TokenFixtures.accessClaims())
        let any = JWTExpectations.anyAudience(
            type: AccessTokenClaims.type, issuer: TokenFixtures.issuer, now: TokenFixtures.now)
        #expect(any.audience == nil)
        #expect(try setup.verify(token, any).audience == [TokenFixtures.audience])
        let none = #"{"iss":"https://id.example","exp":1800000600}"#
        #expect(try setup.verify(try setup.forge(payload: none), any).audience == [])
        #expect(throws: TokenError(.invalidIssuer, "")) {
            try setup.verify(
                token,
                .anyAudience(type: AccessTokenClaims.type, issuer: "https://evil.example", now: TokenFixtures.now))
        }
        #expect(throws: TokenError(.expired, "")) {
            try setup.verify(
                token,
                .anyAudience(
                    type: AccessTokenClaims.type, issuer: TokenFixtures.issuer,
                    now: TokenFixtures.now.addingTimeInterval(86_400)))
        }
    }

    @Test("a payload without exp or iss is refused")
    func missingClaims() throws {
        let setup = try Setup()
        for payload in [
            #"{"iss":"https://id.example","aud":"https://api.example"}"#,
            #"{"aud":"https://api.example","exp":1800000600}"#,
            #"{"iss":"https://id.example","aud":"https://api.example","exp":null}"#,
        ] {
            #expect(throws: TokenError(.missingClaim, "")) { try setup.verify(try setup.forge(payload: payload)) }
        }
    }

    @Test("claims of the wrong type are refused")
    func mistypedClaims() throws {
        let setup = try Setup()
        for payload in [
            #"{"iss":"https://id.example","aud":"https://api.example","exp":"1800000600"}"#,
            #"{"iss":1,"aud":"https://api.example","exp":1800000600}"#,
            #"{"iss":"https://id.example","aud":[1],"exp":1800000600}"#,
        ] {
            #expect(throws: TokenError(.invalidClaim, "")) { try setup.verify(try setup.forge(payload: payload)) }
        }
    }

    @Test(
        "structurally broken tokens are refused as malformed",
        arguments: [
            "", "a.b", "a.b.c.d", "!!!.e30.AA", "e30.!!!.AA", "e30.e30.!!!",
        ])
    func malformed(token: String) throws {
        #expect(throws: TokenError(.malformedToken, "")) { try Setup().verify(token) }
    }

    @Test("a header or payload that is not a JSON object is refused as malformed")
    func notObjects() throws {
        let setup = try Setup()
        #expect(throws: TokenError(.malformedToken, "")) {
            try setup.verify(try setup.forge(payload: Self.payload, header: "[]"))
        }
        #expect(throws: TokenError(.malformedToken, "")) {
            try setup.verify(try setup.forge(payload: Self.payload, header: #"{"alg":1}"#))
        }
        #expect(throws: TokenError(.malformedToken, "")) { try setup.verify(try setup.forge(payload: "[1]")) }
    }

    @Test("RFC 7515 §4 / RFC 7519 §4: a repeated header parameter or claim name is refused as malformed")
    func duplicateNames() throws {
        let setup = try Setup()
        let header = #"{"alg":"ES256","kid":"k1","typ":"at+jwt"}"#
        for repeated in [#","kid":"k1"}"#, #","typ":"at+jwt"}"#, #","alg":"ES256"}"#] {
            let token = try setup.forge(payload: Self.payload, header: String(header.dropLast()) + repeated)
            #expect(throws: TokenError(.malformedToken, ""), "\(repeated)") { try setup.verify(token) }
        }
        for repeated in [#","sub":"u"}"#, #","sub":"admin"}"#, #","iss":"https://id.example"}"#] {
            let token = try setup.forge(payload: String(Self.payload.dropLast()) + repeated)
            #expect(throws: TokenError(.malformedToken, ""), "\(repeated)") { try setup.verify(token) }
        }
    }

    @Test("the verified token carries the payload as parsed, members in order")
    func parsedPayload() throws {
        let setup = try Setup()
        let verified = try setup.verify(try setup.forge(payload: Self.payload))
        #expect(verified.payload == (try JSONValue(parsing: Array(Self.payload.utf8))))
        #expect(verified.payload.objectMembers?.map(\.key) == ["iss", "aud", "sub", "exp", "iat"])
    }

    /// `segment` with its last character's lowest unused bit set: the same bytes, spelled non-canonically
    /// (RFC 4648 §3.5); `nil` when the segment has no unused bits (a whole number of 4-character groups).
    static func nonCanonical(_ segment: Substring) -> String? {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        guard segment.count % 4 != 0, let last = segment.last, let value = alphabet.firstIndex(of: last) else {
            return nil
        }
        return segment.dropLast() + String(alphabet[value | 1])
    }

    @Test("RFC 7515 §2: a segment padded, respelled with non-zero unused bits, '+', '/' or whitespace is malformed")
    func oneSpelling() throws {
        let setup = try Setup()
        let token = try setup.signer.sign(TokenFixtures.accessClaims())
        _ = try setup.verify(token)
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        #expect(segments.count == 3)
        var respelled: [String] = []
        for index in 0..<3 {
            func with(_ replacement: String) -> String {
                var parts = segments.map(String.init)
                parts[index] = replacement
                return parts.joined(separator: ".")
            }
            let segment = segments[index]
            let middle = segment.index(segment.startIndex, offsetBy: segment.count / 2)
            respelled += [
                with(segment + "="), with(segment + "=="), with(segment[..<middle] + " " + segment[middle...]),
                with(segment[..<middle] + "\n" + segment[middle...]), with(" " + segment),
                with(segment.replacingCharacters(in: middle...middle, with: "+")),
                with(segment.replacingCharacters(in: middle...middle, with: "/")),
            ]
            if let other = Self.nonCanonical(segment) { respelled.append(with(other)) }
        }
        // The signature segment (64 bytes) always has unused bits: the same signature bytes in a second spelling
        // must not make a second valid token.
        #expect(Self.nonCanonical(segments[2]) != nil)
        for token in respelled {
            #expect(throws: TokenError(.malformedToken, ""), "\(token)") { try setup.verify(token) }
        }
    }

    @Test("an oversized token is refused before decoding")
    func oversized() throws {
        #expect(throws: TokenError(.malformedToken, "")) { try Setup().verify(String(repeating: "a", count: 20_000)) }
    }

    @Test("a non-P-256 verification key is never used")
    func nonP256Key() throws {
        let setup = try Setup()
        let p384 = try TokenFixtures.p384PublicKey()
        let verifier = JWTVerifier(keys: ["k1": p384])
        #expect(throws: TokenError(.unknownKey, "")) {
            try verifier.verify(
                try setup.signer.sign(TokenFixtures.accessClaims()), expecting: TokenFixtures.expectations())
        }
    }
}
