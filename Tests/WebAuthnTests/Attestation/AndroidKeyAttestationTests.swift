import CBOR
import Crypto
import Foundation
import Testing

@testable import WebAuthn

@Suite("android-key attestation (WebAuthn L3 §8.4)")
struct AndroidKeyAttestationTests {
    static let fixtureName = "reg-android-key.verify_attestation_android_key_hardware_authority"

    // MARK: recorded ceremony

    @Test("the recorded android-key ceremony verifies as Basic with the x5c trust path")
    func recordedCeremonyVerifies() throws {
        let fixture = try RecordedAttestation(Self.fixtureName)
        #expect(fixture.fmt == AndroidKeyAttestation.identifier)
        let result = try AndroidKeyAttestation().verify(fixture.input())
        #expect(result.type == .basic)
        #expect(result.trustPath.count == 5)
    }

    // MARK: statement syntax

    @Test("attStmt that is not a map is refused")
    func statementNotMap() throws {
        let fixture = try RecordedAttestation(Self.fixtureName)
        #expect(code(fixture.input(statement: .text("x"))) == .androidKeyMalformedStatement)
    }

    @Test("missing or mistyped alg, sig or x5c is refused", arguments: ["alg", "sig", "x5c"])
    func missingField(key: String) throws {
        let fixture = try RecordedAttestation(Self.fixtureName)
        #expect(
            code(fixture.input(statement: fixture.statement(setting: key, to: nil))) == .androidKeyMalformedStatement)
        #expect(
            code(fixture.input(statement: fixture.statement(setting: key, to: .null))) == .androidKeyMalformedStatement)
    }

    @Test("an empty x5c or an x5c entry that is not bytes is refused")
    func emptyCertificates() throws {
        let fixture = try RecordedAttestation(Self.fixtureName)
        let empty = fixture.statement(setting: "x5c", to: .array([]))
        #expect(code(fixture.input(statement: empty)) == .androidKeyMalformedStatement)
        let text = fixture.statement(setting: "x5c", to: .array([.text("cert")]))
        #expect(code(fixture.input(statement: text)) == .androidKeyMalformedStatement)
    }

    @Test("an x5c entry that is not a certificate is refused")
    func invalidCertificate() throws {
        let fixture = try RecordedAttestation(Self.fixtureName)
        let statement = fixture.statement(setting: "x5c", to: .array([.bytes([1, 2, 3])]))
        #expect(code(fixture.input(statement: statement)) == .androidKeyInvalidCertificate)
    }

    @Test("an unknown alg is refused")
    func unsupportedAlgorithm() throws {
        let fixture = try RecordedAttestation(Self.fixtureName)
        let statement = fixture.statement(setting: "alg", to: CBORValue(-999))
        #expect(code(fixture.input(statement: statement)) == .unsupportedAlgorithm)
    }

    @Test("authenticator data without attested credential data is refused")
    func noAttestedCredentialData() throws {
        let fixture = try RecordedAttestation(Self.fixtureName)
        let input = fixture.input(authenticatorData: try authenticatorDataWithoutCredential())
        #expect(code(input) == .missingAttestedCredentialData)
    }

    // MARK: signature

    @Test("sig that does not verify over authData || clientDataHash is refused")
    func badSignature() throws {
        let fixture = try RecordedAttestation(Self.fixtureName)
        let sig = flipping(try fixture.bytes("sig"), at: 20)
        #expect(
            code(fixture.input(statement: fixture.statement(setting: "sig", to: .bytes(sig))))
                == .badSignature)
        #expect(code(fixture.input(clientDataHash: [UInt8](repeating: 0, count: 32))) == .badSignature)
        // alg RS256 with an EC certificate key never verifies.
        let rs256 = fixture.statement(setting: "alg", to: CBORValue(COSEAlgorithm.rs256.rawValue))
        #expect(code(fixture.input(statement: rs256)) == .badSignature)
    }

    // MARK: self-made certificates (the certified key signs, so every later check is reachable)

    @Test("a self-made conforming key attestation verifies")
    func selfMadeVerifies() throws {
        let result = try AndroidKeyAttestation().verify(try selfMade(AndroidKeyTestVectors.androidValid))
        #expect(result.type == .basic)
        #expect(result.trustPath.count == 1)
    }

    @Test("a certificate key that is not the credential key is refused")
    func publicKeyMismatch() throws {
        let input = try selfMade(
            AndroidKeyTestVectors.androidValid, authData: AndroidKeyTestVectors.androidOtherAuthData)
        #expect(code(input) == .androidKeyPublicKeyMismatch)
    }

    @Test("a missing or malformed key description extension is refused")
    func malformedKeyDescription() throws {
        #expect(code(try selfMade(AndroidKeyTestVectors.androidNoKeyDescription)) == .androidKeyMalformedKeyDescription)
        #expect(
            code(try selfMade(AndroidKeyTestVectors.androidMalformedKeyDescription))
                == .androidKeyMalformedKeyDescription)
    }

    @Test("attestationChallenge that is not clientDataHash is refused")
    func challengeMismatch() throws {
        let input = try selfMade(AndroidKeyTestVectors.androidValid, clientDataHash: [UInt8](repeating: 9, count: 32))
        #expect(code(input) == .androidKeyChallengeMismatch)
    }

    @Test("allApplications in either authorization list is refused")
    func allApplications() throws {
        #expect(code(try selfMade(AndroidKeyTestVectors.androidAllApplicationsTEE)) == .androidKeyAllApplications)
        #expect(code(try selfMade(AndroidKeyTestVectors.androidAllApplicationsSoftware)) == .androidKeyAllApplications)
    }

    @Test("origin other than KM_ORIGIN_GENERATED is refused")
    func originNotGenerated() throws {
        #expect(code(try selfMade(AndroidKeyTestVectors.androidOriginImported)) == .androidKeyOriginNotGenerated)
    }

    @Test("purpose without KM_PURPOSE_SIGN is refused")
    func purposeNotSign() throws {
        #expect(code(try selfMade(AndroidKeyTestVectors.androidPurposeEncrypt)) == .androidKeyPurposeNotSign)
    }

    @Test("softwareEnforced properties count only when the configuration accepts them")
    func softwareEnforced() throws {
        let input = try selfMade(AndroidKeyTestVectors.androidSoftwareOnly)
        #expect(code(input) == .androidKeyOriginNotGenerated)
        let lenient = AndroidKeyAttestation(configuration: .init(acceptsSoftwareEnforced: true))
        #expect(try lenient.verify(input).type == .basic)
    }

    // MARK: helpers

    private func code(
        _ input: AttestationStatementInput,
        _ format: AndroidKeyAttestation = AndroidKeyAttestation()
    ) -> WebAuthnError.Code? {
        errorCode { () throws(WebAuthnError) in _ = try format.verify(input) }
    }

    /// An input whose statement carries `certificate` and an ES256 signature by the self-made key over
    /// `authData || clientDataHash`.
    private func selfMade(
        _ certificate: [UInt8],
        authData: [UInt8] = AndroidKeyTestVectors.androidAuthData,
        clientDataHash: [UInt8] = AndroidKeyTestVectors.clientDataHash
    ) throws -> AttestationStatementInput {
        let key = try P256SigningKey(pkcs8DERRepresentation: AndroidKeyTestVectors.androidKey)
        let statement = CBORValue.map([
            CBORMapEntry(key: .text("alg"), value: CBORValue(COSEAlgorithm.es256.rawValue)),
            CBORMapEntry(key: .text("sig"), value: .bytes(try key.signature(for: authData + clientDataHash))),
            CBORMapEntry(key: .text("x5c"), value: .array([.bytes(certificate)])),
        ])
        return AttestationStatementInput(
            statement: statement,
            authenticatorData: try AuthenticatorData(bytes: authData),
            clientDataHash: clientDataHash,
            verificationTime: Date(timeIntervalSince1970: 1_767_225_600)
        )
    }
}
