import Crypto
import Foundation
import Testing

@testable import DeviceKeys

@Suite("ApprovalVerifier: a device signature over the challenge document")
struct ApprovalVerifierTests {
    /// A software stand-in for the Secure Enclave key, the stored key and a signed challenge.
    struct Setup {
        let device: P256SigningKey
        let key: DevicePublicKey
        let document: ChallengeDocument
        let signature: [UInt8]

        init() throws {
            device = try P256SigningKey()
            key = try DevicePublicKey(importing: device.publicKey.x963Representation)
            document = try ChallengeDocumentTests.document()
            signature = try device.signature(for: document.bytes)
        }

        func expectations(
            challengeID: String = "ch-1", keyID: String = "dk-1", subject: String = "user-1",
            action: DeviceAction = ChallengeDocumentTests.action, now: Date = ChallengeDocumentTests.iat
        ) -> ApprovalExpectations {
            ApprovalExpectations(challengeID: challengeID, keyID: keyID, subject: subject, action: action, now: now)
        }

        func verify(
            signature: [UInt8]? = nil, documentBytes: [UInt8]? = nil, key: DevicePublicKey? = nil,
            expectations: ApprovalExpectations? = nil
        ) throws(DeviceKeyError) -> VerifiedApproval {
            try ApprovalVerifier.verify(
                signature: signature ?? self.signature, documentBytes: documentBytes ?? document.bytes,
                key: key ?? self.key, expectations: expectations ?? self.expectations())
        }
    }

    @Test("a valid approval verifies and carries the action")
    func valid() throws {
        let setup = try Setup()
        let approval = try setup.verify()
        #expect(approval.action == ChallengeDocumentTests.action)
        #expect(approval.document == setup.document)
        #expect(approval.rawSignature == setup.signature)
    }

    @Test("refuses an expired challenge (exp itself is too late)")
    func expired() throws {
        let setup = try Setup()
        _ = try setup.verify(expectations: setup.expectations(now: ChallengeDocumentTests.exp.addingTimeInterval(-0.5)))
        #expect(throws: DeviceKeyError(.challengeExpired, "")) {
            try setup.verify(expectations: setup.expectations(now: ChallengeDocumentTests.exp))
        }
    }

    @Test("refuses a document for another challenge")
    func otherChallenge() throws {
        let setup = try Setup()
        #expect(throws: DeviceKeyError(.challengeMismatch, "")) {
            try setup.verify(expectations: setup.expectations(challengeID: "ch-2"))
        }
    }

    @Test("refuses a document for another key")
    func otherKeyID() throws {
        let setup = try Setup()
        #expect(throws: DeviceKeyError(.challengeMismatch, "")) {
            try setup.verify(expectations: setup.expectations(keyID: "dk-2"))
        }
    }

    @Test("refuses a document for another subject")
    func otherSubject() throws {
        let setup = try Setup()
        #expect(throws: DeviceKeyError(.challengeMismatch, "")) {
            try setup.verify(expectations: setup.expectations(subject: "user-2"))
        }
    }

    @Test("refuses when the stored action is not the hashed one")
    func otherAction() throws {
        let setup = try Setup()
        let other = try DeviceAction(jsonBytes: utf8(#"{"type":"transfer","amount":"2000 EUR","to":"X"}"#))
        #expect(throws: DeviceKeyError(.challengeMismatch, "")) {
            try setup.verify(expectations: setup.expectations(action: other))
        }
    }

    @Test("refuses a signature by another key")
    func otherDevice() throws {
        let setup = try Setup()
        let stranger = try DevicePublicKey(importing: try P256SigningKey().publicKey.derRepresentation)
        #expect(throws: DeviceKeyError(.invalidSignature, "")) { try setup.verify(key: stranger) }
    }

    @Test("refuses garbage, truncated or non-DER (raw r‖s) signatures")
    func badSignatures() throws {
        let setup = try Setup()
        let raw = try ECDSASignature.rawRepresentation(fromDER: setup.signature, curve: .p256)
        for signature in [[], Array(setup.signature.dropLast()), raw, setup.signature + [0]] {
            #expect(throws: DeviceKeyError(.invalidSignature, "")) { try setup.verify(signature: signature) }
        }
    }

    @Test("changing any field of the signed document breaks the signature")
    func bindingOfEveryField() throws {
        let setup = try Setup()
        let other = try DeviceAction(jsonBytes: utf8(#"{"type":"transfer","amount":"201 EUR","to":"X"}"#))
        // Each variant is consistent with matching expectations, so only the signature can catch it.
        let variants: [(ChallengeDocument, ApprovalExpectations)] = [
            (try ChallengeDocumentTests.document(issuer: "https://evil.example"), setup.expectations()),
            (try ChallengeDocumentTests.document(subject: "user-2"), setup.expectations(subject: "user-2")),
            (try ChallengeDocumentTests.document(keyID: "dk-2"), setup.expectations(keyID: "dk-2")),
            (try ChallengeDocumentTests.document(challengeID: "ch-2"), setup.expectations(challengeID: "ch-2")),
            (try ChallengeDocumentTests.document(nonce: [UInt8](repeating: 1, count: 32)), setup.expectations()),
            (
                try ChallengeDocumentTests.document(issuedAt: ChallengeDocumentTests.iat.addingTimeInterval(-5)),
                setup.expectations()
            ),
            (
                try ChallengeDocumentTests.document(expiresAt: ChallengeDocumentTests.exp.addingTimeInterval(600)),
                setup.expectations()
            ),
            (try ChallengeDocumentTests.document(action: other), setup.expectations(action: other)),
        ]
        for (document, expectations) in variants {
            #expect(throws: DeviceKeyError(.invalidSignature, "")) {
                try setup.verify(documentBytes: document.bytes, expectations: expectations)
            }
        }
    }

    @Test("refuses document bytes that are not a canonical challenge document")
    func badDocument() throws {
        let setup = try Setup()
        let spaced = utf8(
            String(decoding: setup.document.bytes, as: UTF8.self).replacingOccurrences(of: ",", with: ", "))
        #expect(throws: DeviceKeyError(.invalidChallengeDocument, "")) {
            try setup.verify(signature: try setup.device.signature(for: spaced), documentBytes: spaced)
        }
    }
}
