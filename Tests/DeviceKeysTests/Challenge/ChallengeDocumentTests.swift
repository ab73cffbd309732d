import Crypto
import Foundation
import Testing

@testable import DeviceKeys

@Suite("ChallengeDocument: the canonical bytes a device signs")
struct ChallengeDocumentTests {
    static let action = try! DeviceAction(jsonBytes: utf8(#"{"type":"transfer","amount":"200 EUR","to":"X"}"#))
    static let nonce = [UInt8](repeating: 0xAB, count: 32)
    static let iat = Date(timeIntervalSince1970: 1_800_000_000.9)
    static let exp = Date(timeIntervalSince1970: 1_800_000_120)

    static func document(
        issuer: String = "https://id.example", subject: String = "user-1", keyID: String = "dk-1",
        challengeID: String = "ch-1", nonce: [UInt8] = nonce, issuedAt: Date = iat, expiresAt: Date = exp,
        action: DeviceAction = action
    ) throws -> ChallengeDocument {
        try ChallengeDocument(
            issuer: issuer, subject: subject, keyID: keyID, challengeID: challengeID, nonce: nonce,
            issuedAt: issuedAt, expiresAt: expiresAt, action: action)
    }

    @Test("the bytes are exactly the RFC 8785 form of the nine members")
    func exactBytes() throws {
        let document = try Self.document()
        let hash = Base64URL.encode(Digest.sha256(Self.action.canonicalBytes))
        let expected =
            #"{"action_sha256":""# + hash + #"","challenge_id":"ch-1","exp":1800000120,"iat":1800000000,"#
            + #""iss":"https://id.example","key_id":"dk-1","nonce":""# + Base64URL.encode(Self.nonce)
            + #"","sub":"user-1","v":1}"#
        #expect(String(decoding: document.bytes, as: UTF8.self) == expected)
        #expect(document.issuedAt == 1_800_000_000)
        #expect(Base64URL.decode(document.base64URLEncoded) == document.bytes)
    }

    @Test("parses its own bytes back to the same document")
    func roundTrip() throws {
        let document = try Self.document()
        #expect(try ChallengeDocument(bytes: document.bytes) == document)
    }

    @Test("changing any field changes the bytes")
    func everyFieldBinds() throws {
        let base = try Self.document().bytes
        let other = try DeviceAction(jsonBytes: utf8(#"{"type":"transfer","amount":"201 EUR","to":"X"}"#))
        let variants = [
            try Self.document(issuer: "https://other.example"), try Self.document(subject: "user-2"),
            try Self.document(keyID: "dk-2"), try Self.document(challengeID: "ch-2"),
            try Self.document(nonce: [UInt8](repeating: 0xAC, count: 32)),
            try Self.document(issuedAt: Self.iat.addingTimeInterval(-1)),
            try Self.document(expiresAt: Self.exp.addingTimeInterval(1)), try Self.document(action: other),
        ]
        for variant in variants { #expect(variant.bytes != base) }
    }

    @Test("refuses a nonce that is not 32 bytes")
    func nonceLength() {
        #expect(throws: DeviceKeyError(.invalidChallengeDocument, "")) {
            try Self.document(nonce: Array(Self.nonce.dropLast()))
        }
    }

    @Test("refuses an empty identifier")
    func emptyIdentifier() {
        #expect(throws: DeviceKeyError(.invalidChallengeDocument, "")) { try Self.document(keyID: "") }
    }

    @Test("refuses exp not after iat")
    func times() {
        #expect(throws: DeviceKeyError(.invalidChallengeDocument, "")) { try Self.document(expiresAt: Self.iat) }
    }

    @Test("refuses a time that is not representable")
    func outOfRange() {
        #expect(throws: DeviceKeyError(.invalidChallengeDocument, "")) {
            try Self.document(expiresAt: Date(timeIntervalSince1970: 1e300))
        }
    }

    @Test("parsing refuses non-canonical, incomplete, extended or mistyped documents")
    func parseRefusals() throws {
        let text = String(decoding: try Self.document().bytes, as: UTF8.self)
        let variants = [
            text.replacingOccurrences(of: ",", with: ", "),  // not canonical
            text.replacingOccurrences(of: #""v":1"#, with: #""v":2"#),  // unknown version
            text.replacingOccurrences(of: #","v":1"#, with: ""),  // missing member
            text.replacingOccurrences(of: #""v":1"#, with: #""v":1,"x":1"#),  // extra member
            text.replacingOccurrences(of: #""sub":"user-1""#, with: #""sub":1"#),  // wrong type
            text.replacingOccurrences(of: #""iat":1800000000"#, with: #""iat":1800000000.5"#),  // fractional time
            text.replacingOccurrences(of: #""action_sha256":""#, with: #""action_sha256":"AAAA"#),  // short hash
            "[]", "not json",
        ]
        for variant in variants {
            #expect(throws: DeviceKeyError(.invalidChallengeDocument, "")) {
                try ChallengeDocument(bytes: utf8(variant))
            }
        }
    }
}
