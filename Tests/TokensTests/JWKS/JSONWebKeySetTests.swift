import Crypto
import Foundation
import Testing

@testable import Tokens

@Suite("JSONWebKeySet: RFC 7517 document")
struct JSONWebKeySetTests {
    @Test("each key has kty EC, crv P-256, 32-byte x and y, kid, use sig, alg ES256")
    func shape() throws {
        let first = try P256SigningKey().publicKey
        let second = try P256SigningKey().publicKey
        let set = try JSONWebKeySet(keys: [(keyID: "k1", publicKey: first), (keyID: "k2", publicKey: second)])
        let document = TokenFixtures.json(set.jsonBytes())
        let keys = try #require(document["keys"] as? [[String: Any]])
        #expect(document.count == 1 && keys.count == 2)
        let jwk = keys[0]
        #expect(Set(jwk.keys) == ["kty", "crv", "x", "y", "kid", "use", "alg"])
        #expect(jwk["kty"] as? String == "EC" && jwk["crv"] as? String == "P-256")
        #expect(jwk["use"] as? String == "sig" && jwk["alg"] as? String == "ES256" && jwk["kid"] as? String == "k1")
        let xText = try #require(jwk["x"] as? String)
        let yText = try #require(jwk["y"] as? String)
        let x = try #require(Base64URL.decode(xText))
        let y = try #require(Base64URL.decode(yText))
        #expect(x.count == 32 && y.count == 32)
        // The JWK rebuilds the same public key.
        #expect(try ECPublicKey(curve: .p256, x: x, y: y).x963Representation == first.x963Representation)
        #expect(keys[1]["kid"] as? String == "k2")
    }

    @Test("the document bytes are deterministic")
    func deterministic() throws {
        let key = try P256SigningKey().publicKey
        let a = try JSONWebKeySet(keys: [(keyID: "k1", publicKey: key)]).jsonBytes()
        let b = try JSONWebKeySet(keys: [(keyID: "k1", publicKey: key)]).jsonBytes()
        #expect(a == b)
        #expect(
            TokenFixtures.text(a).hasPrefix(
                #"{"keys":[{"alg":"ES256","crv":"P-256","kid":"k1","kty":"EC","use":"sig","x":""#))
    }

    @Test("an empty set is {\"keys\":[]}")
    func empty() throws {
        #expect(TokenFixtures.text(try JSONWebKeySet(keys: []).jsonBytes()) == #"{"keys":[]}"#)
    }

    @Test("a repeated kid, an empty kid and a non-P-256 key are refused")
    func refusals() throws {
        let key = try P256SigningKey().publicKey
        #expect(throws: TokenError(.unusableKey, "")) {
            try JSONWebKeySet(keys: [(keyID: "k", publicKey: key), (keyID: "k", publicKey: key)])
        }
        #expect(throws: TokenError(.unusableKey, "")) { try JSONWebKey(keyID: "", publicKey: key) }
        let p384 = try TokenFixtures.p384PublicKey()
        #expect(throws: TokenError(.unusableKey, "")) { try JSONWebKey(keyID: "k", publicKey: p384) }
    }
}
