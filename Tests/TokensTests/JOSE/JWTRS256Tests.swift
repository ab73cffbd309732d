import Crypto
import Foundation
import JSON
import Testing

@testable import Tokens

@Suite("RS256 (RFC 7518 §3.3): signing, verification, the key decides the algorithm, RSA JWKs")
struct JWTRS256Tests {
    static let rsaKey = Result { try RSASigningKey(bits: 2048) }

    @Test("an RS256 token verifies with its RSA key and carries alg RS256")
    func roundTrip() throws {
        let key = try Self.rsaKey.get()
        let token = try JWTSigner(rsaKey: key, keyID: "r1").sign(TokenFixtures.accessClaims())
        let header = try JSONValue(parsing: try #require(Base64URL.decode(String(token.split(separator: ".")[0]))))
        #expect(header["alg"]?.stringValue == "RS256")
        let verified = try JWTVerifier(keys: ["r1": .rs256(key.publicKey)])
            .verify(token, expecting: TokenFixtures.expectations())
        #expect(verified.subject == "user-1")
        // One altered signature byte is refused.
        var bytes = Array(token.utf8)
        bytes[bytes.count - 3] = bytes[bytes.count - 3] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(throws: TokenError(.invalidSignature, "")) {
            try JWTVerifier(keys: ["r1": .rs256(key.publicKey)])
                .verify(String(decoding: bytes, as: UTF8.self), expecting: TokenFixtures.expectations())
        }
    }

    @Test("RFC 8725 §3.1: a token whose alg is not its key's is refused (RS256 header on an EC kid and the reverse)")
    func algorithmBoundToKey() throws {
        let rsa = try Self.rsaKey.get()
        let ec = try P256SigningKey()
        let verifier = JWTVerifier(keys: ["r1": .rs256(rsa.publicKey), "e1": .es256(ec.publicKey)])
        let rsToken = try JWTSigner(rsaKey: rsa, keyID: "e1").sign(TokenFixtures.accessClaims())
        #expect(throws: TokenError(.unknownKey, "")) {
            try verifier.verify(rsToken, expecting: TokenFixtures.expectations())
        }
        let esToken = try JWTSigner(key: ec, keyID: "r1").sign(TokenFixtures.accessClaims())
        #expect(throws: TokenError(.unknownKey, "")) {
            try verifier.verify(esToken, expecting: TokenFixtures.expectations())
        }
    }

    @Test("RSA keys under 2048 bits neither sign nor publish, counted in bits: a 2047-bit modulus is 256 bytes")
    func minimumSize() throws {
        for bits in [1024, 2047] {
            let small = try RSASigningKey(bits: bits)
            #expect(small.publicKey.modulusBits == bits)
            #expect(throws: TokenError(.unusableKey, ""), "\(bits)") { try JWTSigner(rsaKey: small, keyID: "s") }
            #expect(throws: TokenError(.unusableKey, ""), "\(bits)") {
                try JSONWebKey(keyID: "s", publicKey: small.publicKey)
            }
            let jwk = JSONValue.object([
                JSONMember(key: "kty", value: "RSA"),
                JSONMember(key: "n", value: .string(Base64URL.encode(small.publicKey.modulus))),
                JSONMember(key: "e", value: .string(Base64URL.encode(small.publicKey.exponent))),
            ])
            #expect(throws: TokenError(.unusableKey, ""), "\(bits)") { try JWTVerificationKey(jwk: jwk) }
        }
    }

    @Test("an RSA JWK has kty RSA, n, e, kid, use sig and alg RS256; a set holds EC and RSA keys together")
    func rsaJWK() throws {
        let rsa = try Self.rsaKey.get()
        let ec = try P256SigningKey()
        let set = try JSONWebKeySet(verificationKeys: [("e1", .es256(ec.publicKey)), ("r1", .rs256(rsa.publicKey))])
        let document = try JSONValue(parsing: set.jsonBytes())
        let keys = try #require(document["keys"]?.arrayValue)
        #expect(keys.count == 2)
        let jwk = keys[1]
        #expect(Set(try #require(jwk.objectMembers).map(\.key)) == ["kty", "n", "e", "kid", "use", "alg"])
        #expect(jwk["kty"]?.stringValue == "RSA" && jwk["alg"]?.stringValue == "RS256")
        #expect(jwk["use"]?.stringValue == "sig" && jwk["e"]?.stringValue == "AQAB")
        #expect(jwk["n"]?.stringValue.flatMap { Base64URL.decode($0) } == rsa.publicKey.modulus)
        #expect(throws: TokenError(.unusableKey, "")) {
            try JSONWebKeySet(verificationKeys: [("k", .es256(ec.publicKey)), ("k", .rs256(rsa.publicKey))])
        }
        // RFC 7638 §3.2: the RSA thumbprint covers e, kty and n only.
        #expect(JWKThumbprint.of(rsa.publicKey).count == 43)
    }
}
