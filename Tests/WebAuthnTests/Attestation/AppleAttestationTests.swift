import CBOR
import Crypto
import Foundation
import Testing

@testable import WebAuthn

@Suite("apple anonymous attestation (WebAuthn L3 §8.8)")
struct AppleAttestationTests {
    static let fixtureName = "reg-apple.verify_attestation_apple_passkey"

    @Test("the recorded apple ceremony verifies as AnonCA with the x5c trust path")
    func recordedCeremonyVerifies() throws {
        let fixture = try RecordedAttestation(Self.fixtureName)
        #expect(fixture.fmt == AppleAttestation.identifier)
        let result = try AppleAttestation().verify(fixture.input())
        #expect(result.type == .anonCA)
        #expect(result.trustPath.count == 2)
    }

    @Test("attStmt that is not a map, or a missing, empty or mistyped x5c, is refused")
    func malformedStatement() throws {
        let fixture = try RecordedAttestation(Self.fixtureName)
        #expect(code(fixture.input(statement: .array([]))) == .appleMalformedStatement)
        for x5c: CBORValue? in [nil, .array([]), .bytes([1]), .array([.text("cert")])] {
            #expect(
                code(fixture.input(statement: fixture.statement(setting: "x5c", to: x5c))) == .appleMalformedStatement)
        }
    }

    @Test("authenticator data without attested credential data is refused")
    func noAttestedCredentialData() throws {
        let fixture = try RecordedAttestation(Self.fixtureName)
        let input = fixture.input(authenticatorData: try authenticatorDataWithoutCredential())
        #expect(code(input) == .missingAttestedCredentialData)
    }

    @Test("an x5c entry that is not a certificate is refused")
    func invalidCertificate() throws {
        let fixture = try RecordedAttestation(Self.fixtureName)
        let statement = fixture.statement(setting: "x5c", to: .array([.bytes([0x30, 0x03, 0x02, 0x01, 0x01])]))
        #expect(code(fixture.input(statement: statement)) == .appleInvalidCertificate)
    }

    @Test("a nonce that is not SHA-256(authData || clientDataHash) is refused")
    func nonceMismatch() throws {
        let fixture = try RecordedAttestation(Self.fixtureName)
        // The apple format has no signature: the nonce is the only binding to clientDataHash.
        #expect(code(fixture.input(clientDataHash: flipping(fixture.clientDataHash, at: 0))) == .appleNonceMismatch)
    }

    @Test("credCert without the nonce extension, or with a malformed one, is refused")
    func malformedNonceExtension() throws {
        #expect(code(try selfMade(AppleTestVectors.appleNoNonce)) == .appleMalformedNonceExtension)
        #expect(code(try selfMade(AppleTestVectors.appleMalformedNonce)) == .appleMalformedNonceExtension)
    }

    @Test("credCert whose key is not the credential key is refused")
    func publicKeyMismatch() throws {
        // The self-made certificate's nonce matches appleOtherAuthData, whose credential key is another key.
        #expect(code(try selfMade(AppleTestVectors.appleOtherNonce)) == .applePublicKeyMismatch)
    }

    @Test("the nonce extension parser reads only SEQUENCE { [1] EXPLICIT OCTET STRING }")
    func nonceParser() throws {
        let nonce = [UInt8](repeating: 0xAB, count: 32)
        let valid: [UInt8] = [0x30, 0x24, 0xA1, 0x22, 0x04, 0x20] + nonce
        #expect(try AppleAttestation.nonce(fromExtensionValue: valid) == nonce)
        let wrongTag: [UInt8] = [0x30, 0x24, 0xA2, 0x22, 0x04, 0x20] + nonce
        let twoElements: [UInt8] = [0x30, 0x26, 0xA1, 0x22, 0x04, 0x20] + nonce + [0x05, 0x00]
        let notSequence: [UInt8] = [0x31, 0x24, 0xA1, 0x22, 0x04, 0x20] + nonce
        let notOctets: [UInt8] = [0x30, 0x05, 0xA1, 0x03, 0x02, 0x01, 0x01]
        for value in [wrongTag, twoElements, notSequence, notOctets, Array(valid.dropLast())] {
            #expect(
                errorCode { () throws(WebAuthnError) in _ = try AppleAttestation.nonce(fromExtensionValue: value) }
                    == .appleMalformedNonceExtension
            )
        }
    }

    // MARK: helpers

    private func code(_ input: AttestationStatementInput) -> WebAuthnError.Code? {
        errorCode { () throws(WebAuthnError) in _ = try AppleAttestation().verify(input) }
    }

    private func selfMade(_ certificate: [UInt8]) throws -> AttestationStatementInput {
        AttestationStatementInput(
            statement: .map([CBORMapEntry(key: .text("x5c"), value: .array([.bytes(certificate)]))]),
            authenticatorData: try AuthenticatorData(bytes: AppleTestVectors.appleOtherAuthData),
            clientDataHash: AppleTestVectors.clientDataHash,
            verificationTime: Date(timeIntervalSince1970: 1_767_225_600)
        )
    }
}
