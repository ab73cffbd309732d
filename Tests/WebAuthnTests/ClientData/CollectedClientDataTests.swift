import Crypto
import Foundation
import Testing

@testable import WebAuthn

@Suite("CollectedClientData")
struct CollectedClientDataTests {
    typealias SA = SoftwareAuthenticator
    let policy = OriginPolicy(allowedOrigins: [SA.origin])
    let framedPolicy = OriginPolicy(
        allowedOrigins: [SA.origin], allowsCrossOrigin: true, allowedTopOrigins: ["https://portal.example"])

    func verify(_ bytes: [UInt8], policy: OriginPolicy? = nil, type: String = "webauthn.create") throws {
        try CollectedClientData(bytes: bytes).verify(
            type: type, challenge: SA.challenge, originPolicy: policy ?? self.policy)
    }

    @Test("valid client data parses and verifies, keeping the raw bytes")
    func valid() throws {
        let bytes = SA.clientData(extra: "\"crossOrigin\":false")
        let parsed = try CollectedClientData(bytes: bytes)
        #expect(parsed.rawBytes == bytes)
        #expect(parsed.type == "webauthn.create")
        #expect(parsed.challenge == SA.challenge)
        #expect(parsed.origin == SA.origin)
        #expect(parsed.crossOrigin == false)
        try verify(bytes)
    }

    @Test("§7.1 step 8: the challenge is compared as text: another spelling of it is challengeMismatch")
    func challengeSpelling() throws {
        let canonical = Base64URL.encode(SA.challenge)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let last = try #require(canonical.last.flatMap { alphabet.firstIndex(of: $0) })
        let spellings = [
            canonical + "=", canonical + "==", Data(SA.challenge).base64EncodedString(), " " + canonical,
            String(canonical.dropLast()) + String(alphabet[last | 1]),  // a non-zero unused bit (RFC 4648 §3.5)
        ]
        for spelling in spellings {
            let bytes = Array(
                #"{"type":"webauthn.create","challenge":"\#(spelling)","origin":"\#(SA.origin)"}"#.utf8)
            let parsed = try CollectedClientData(bytes: bytes)
            #expect(throws: code(.challengeMismatch), "\(spelling)") {
                try parsed.verify(type: "webauthn.create", challenge: SA.challenge, originPolicy: policy)
            }
            #expect(parsed.challenge.isEmpty, "\(spelling)")
        }
        try verify(
            Array(#"{"type":"webauthn.create","challenge":"\#(canonical)","origin":"\#(SA.origin)"}"#.utf8))
    }

    @Test("bytes that are not JSON are malformedClientData")
    func notJSON() {
        #expect(throws: code(.malformedClientData)) { try CollectedClientData(bytes: Array("{\"type\":".utf8)) }
    }

    @Test("WebAuthn L3 §5.8.1 / RFC 8259 §4: a repeated member name is malformedClientData, even with the same value")
    func duplicateMember() {
        let challenge = Base64URL.encode(SA.challenge)
        for duplicate in [
            #""origin":"\#(SA.origin)""#, #""origin":"https://evil.example""#, #""type":"webauthn.create""#,
            #""challenge":"\#(challenge)""#, #""crossOrigin":false"#,
        ] {
            let bytes = Array(
                #"{"type":"webauthn.create","challenge":"\#(challenge)","origin":"\#(SA.origin)","crossOrigin":false,\#(duplicate)}"#
                    .utf8)
            #expect(throws: code(.malformedClientData), "\(duplicate)") { try CollectedClientData(bytes: bytes) }
        }
    }

    @Test("a JSON array is malformedClientData")
    func notObject() {
        #expect(throws: code(.malformedClientData)) { try CollectedClientData(bytes: Array("[1]".utf8)) }
    }

    @Test("a missing type is malformedClientData")
    func missingType() {
        #expect(throws: code(.malformedClientData)) { try CollectedClientData(bytes: SA.clientData(type: nil)) }
    }

    @Test("a missing challenge is malformedClientData")
    func missingChallenge() {
        let bytes = Array("{\"type\":\"webauthn.create\",\"origin\":\"https://example.com\"}".utf8)
        #expect(throws: code(.malformedClientData)) { try CollectedClientData(bytes: bytes) }
    }

    @Test("a missing origin is malformedClientData")
    func missingOrigin() {
        #expect(throws: code(.malformedClientData)) { try CollectedClientData(bytes: SA.clientData(origin: nil)) }
    }

    @Test("crossOrigin that is not a boolean is malformedClientData")
    func crossOriginNotBool() {
        #expect(throws: code(.malformedClientData)) {
            try CollectedClientData(bytes: SA.clientData(extra: "\"crossOrigin\":1"))
        }
    }

    @Test("topOrigin that is not a string is malformedClientData")
    func topOriginNotString() {
        #expect(throws: code(.malformedClientData)) {
            try CollectedClientData(bytes: SA.clientData(extra: "\"topOrigin\":true"))
        }
    }

    @Test("a tokenBinding dictionary without status is malformedClientData")
    func tokenBindingWithoutStatus() {
        #expect(throws: code(.malformedClientData)) {
            try CollectedClientData(bytes: SA.clientData(extra: "\"tokenBinding\":{}"))
        }
    }

    @Test("the other ceremony's type is typeMismatch")
    func wrongType() {
        #expect(throws: code(.typeMismatch)) { try verify(SA.clientData(type: "webauthn.get")) }
    }

    @Test("another challenge is challengeMismatch")
    func wrongChallenge() {
        #expect(throws: code(.challengeMismatch)) { try verify(SA.clientData(challenge: [1, 2, 3])) }
    }

    @Test("a challenge that is not base64url is challengeMismatch")
    func challengeNotBase64URL() {
        let bytes = Array(
            "{\"type\":\"webauthn.create\",\"challenge\":\"***\",\"origin\":\"https://example.com\"}".utf8)
        #expect(throws: code(.challengeMismatch)) { try verify(bytes) }
    }

    @Test("another origin is originMismatch")
    func wrongOrigin() {
        #expect(throws: code(.originMismatch)) { try verify(SA.clientData(origin: "https://evil.example.com")) }
    }

    @Test("crossOrigin true is refused unless allowed")
    func crossOriginRefused() throws {
        let bytes = SA.clientData(extra: "\"crossOrigin\":true")
        #expect(throws: code(.crossOriginNotAllowed)) { try verify(bytes) }
        try verify(bytes, policy: framedPolicy)
    }

    @Test("a topOrigin that is not allowed is topOriginMismatch")
    func topOriginRefused() throws {
        let bytes = SA.clientData(extra: "\"crossOrigin\":true,\"topOrigin\":\"https://evil.example\"")
        #expect(throws: code(.topOriginMismatch)) { try verify(bytes, policy: framedPolicy) }
        try verify(
            SA.clientData(extra: "\"crossOrigin\":true,\"topOrigin\":\"https://portal.example\""), policy: framedPolicy)
    }

    @Test("a topOrigin when the RP does not allow framing is topOriginMismatch")
    func topOriginWithoutFraming() {
        #expect(throws: code(.topOriginMismatch)) {
            try verify(SA.clientData(extra: "\"topOrigin\":\"https://portal.example\""))
        }
    }

    @Test("tokenBinding.status outside present/supported is tokenBindingUnsupported")
    func tokenBindingStatus() throws {
        #expect(throws: code(.tokenBindingUnsupported)) {
            try verify(SA.clientData(extra: "\"tokenBinding\":{\"status\":\"not-supported\"}"))
        }
        try verify(SA.clientData(extra: "\"tokenBinding\":{\"status\":\"present\",\"id\":\"AAA\"}"))
        try verify(SA.clientData(extra: "\"tokenBinding\":{\"status\":\"supported\"}"))
    }

    @Test("a tokenBinding that is not a dictionary carries no status and is ignored (L3 reserves it)")
    func tokenBindingNotDictionary() throws {
        try verify(SA.clientData(extra: "\"tokenBinding\":\"unused\""))
    }
}
