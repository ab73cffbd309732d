import CBOR
import Crypto
import Testing

@testable import WebAuthn

@Suite("PackedAttestation")
struct PackedAttestationTests {
    typealias SA = SoftwareAuthenticator
    let fixture: AttestationFixture
    let authData: [UInt8]

    init() throws {
        fixture = try AttestationFixture()
        authData = fixture.authenticator.registrationData(aaguid: TestCertificates.aaguid)
    }

    /// A full-attestation statement whose x5c starts with `leaf`, signed by the leaf key.
    func x5c(_ leaf: String, alg: Int = -7, signature: [UInt8]? = nil) throws -> AttestationStatementInput {
        let sig = try signature ?? fixture.leafKey.signature(for: authData + fixture.clientDataHash)
        let statement = AttestationFixture.statement([
            ("alg", CBORValue(alg)), ("sig", .bytes(sig)),
            (
                "x5c",
                .array([.bytes(AttestationFixture.der(leaf)), .bytes(AttestationFixture.der(TestCertificates.ca))])
            ),
        ])
        return try fixture.input(statement, authData: authData)
    }

    func selfAttestation(alg: Int = -7, signature: [UInt8]? = nil, dropping: String? = nil) throws
        -> AttestationStatementInput
    {
        let sig = try signature ?? fixture.authenticator.key.signature(for: authData + fixture.clientDataHash)
        let statement = AttestationFixture.statement(
            [("alg", CBORValue(alg)), ("sig", .bytes(sig))].filter { $0.0 != dropping })
        return try fixture.input(statement, authData: authData)
    }

    @Test("self attestation: type self, no trust path")
    func selfValid() throws {
        let result = try PackedAttestation().verify(try selfAttestation())
        #expect(result.type == .self && result.trustPath.isEmpty)
    }

    @Test("self attestation with an alg other than the credential's is invalidAttestationStatement")
    func selfAlgMismatch() {
        #expect(throws: code(.invalidAttestationStatement)) {
            try PackedAttestation().verify(try selfAttestation(alg: -257))
        }
    }

    @Test("self attestation with a bad signature is badSignature")
    func selfBadSignature() throws {
        let wrong = try fixture.authenticator.key.signature(for: [1, 2, 3])
        #expect(throws: code(.badSignature)) { try PackedAttestation().verify(try selfAttestation(signature: wrong)) }
    }

    @Test("a missing alg is invalidAttestationStatement")
    func missingAlg() {
        #expect(throws: code(.invalidAttestationStatement)) {
            try PackedAttestation().verify(try selfAttestation(dropping: "alg"))
        }
    }

    @Test("a missing sig is invalidAttestationStatement")
    func missingSig() {
        #expect(throws: code(.invalidAttestationStatement)) {
            try PackedAttestation().verify(try selfAttestation(dropping: "sig"))
        }
    }

    @Test("an unknown alg is unsupportedAlgorithm")
    func unknownAlg() {
        #expect(throws: code(.unsupportedAlgorithm)) { try PackedAttestation().verify(try selfAttestation(alg: -47)) }
    }

    @Test("x5c attestation meeting §8.2.1: type basic, trust path is x5c")
    func x5cValid() throws {
        let result = try PackedAttestation().verify(try x5c(TestCertificates.good))
        #expect(result.type == .basic && result.trustPath.count == 2)
    }

    @Test("x5c attestation with a bad signature is badSignature")
    func x5cBadSignature() throws {
        let wrong = try fixture.leafKey.signature(for: [1])
        #expect(throws: code(.badSignature)) {
            try PackedAttestation().verify(try x5c(TestCertificates.good, signature: wrong))
        }
    }

    @Test("x5c attestation with an alg that does not fit the certificate key is badSignature")
    func x5cAlgMismatch() {
        #expect(throws: code(.badSignature)) { try PackedAttestation().verify(try x5c(TestCertificates.good, alg: -8)) }
    }

    @Test("an x5c that is not an array of byte strings is invalidAttestationStatement")
    func x5cShape() throws {
        let statement = AttestationFixture.statement([
            ("alg", CBORValue(-7)), ("sig", .bytes([1])), ("x5c", .array([.text("x")])),
        ])
        #expect(throws: code(.invalidAttestationStatement)) {
            try PackedAttestation().verify(try fixture.input(statement, authData: authData))
        }
    }

    @Test("an x5c certificate that does not parse is invalidAttestationCertificate")
    func x5cGarbage() throws {
        let statement = AttestationFixture.statement([
            ("alg", CBORValue(-7)), ("sig", .bytes([1])), ("x5c", .array([.bytes([0x30, 0x00])])),
        ])
        #expect(throws: code(.invalidAttestationCertificate)) {
            try PackedAttestation().verify(try fixture.input(statement, authData: authData))
        }
    }

    @Test("§8.2.1: a version 1 certificate is invalidAttestationCertificate")
    func version() { expectCertificateFault(TestCertificates.v1) }

    @Test("§8.2.1: a subject without C is invalidAttestationCertificate")
    func missingCountry() { expectCertificateFault(TestCertificates.noc) }

    @Test("§8.2.1: an OU other than \"Authenticator Attestation\" is invalidAttestationCertificate")
    func organizationalUnit() { expectCertificateFault(TestCertificates.wrongou) }

    @Test("§8.2.1: basicConstraints CA true is invalidAttestationCertificate")
    func caTrue() { expectCertificateFault(TestCertificates.catrue) }

    @Test("§8.2.1: no basicConstraints is invalidAttestationCertificate")
    func noBasicConstraints() { expectCertificateFault(TestCertificates.nobc) }

    @Test("§8.2 step 2: an id-fido-gen-ce-aaguid other than authData's AAGUID is invalidAttestationCertificate")
    func aaguidMismatch() { expectCertificateFault(TestCertificates.aaguidother) }

    @Test("§8.2.1: a critical id-fido-gen-ce-aaguid is invalidAttestationCertificate")
    func aaguidCritical() { expectCertificateFault(TestCertificates.aaguidcritical) }

    func expectCertificateFault(_ leaf: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(throws: code(.invalidAttestationCertificate), sourceLocation: sourceLocation) {
            try PackedAttestation().verify(try x5c(leaf))
        }
    }

    @Test("§7.1 step 24: a chain to a configured anchor is trusted; another anchor is untrusted, refused when required")
    func trustThroughVerifier() throws {
        let clientData = SA.clientData()
        let sig = try fixture.leafKey.signature(for: authData + Digest.sha256(clientData))
        let statement = AttestationFixture.statement([
            ("alg", CBORValue(-7)), ("sig", .bytes(sig)),
            ("x5c", .array([.bytes(AttestationFixture.der(TestCertificates.good))])),
        ])
        let response = SA.registration(
            clientData: clientData,
            attestationObject: try SA.attestationObject(fmt: "packed", attStmt: statement, authData: authData))
        let root = try Certificate(derEncoded: AttestationFixture.der(TestCertificates.ca))
        let trusted = try RegistrationVerifier(
            expectations: SA.registrationExpectations(
                trustAnchors: AttestationTrustAnchors(byFormat: ["packed": [root]]))
        ).verify(response)
        #expect(trusted.attestationTrust == .trusted && trusted.attestationType == .basic)
        #expect(CeremonyPolicy(requireTrustedAttestation: true).evaluate(trusted) == .meetsPolicy)
        #expect(trusted.aaguidString == "00010203-0405-0607-0809-0a0b0c0d0e0f")

        let other = try Certificate(derEncoded: AttestationFixture.der(TestCertificates.p384))
        let untrustedExpectations = SA.registrationExpectations(
            trustAnchors: AttestationTrustAnchors(forAnyFormat: [other]))
        let untrusted = try RegistrationVerifier(expectations: untrustedExpectations).verify(response)
        guard case .untrusted(let reason) = untrusted.attestationTrust else {
            Issue.record("expected untrusted, got \(untrusted.attestationTrust)")
            return
        }
        #expect(reason.contains("does not chain"))
        #expect(throws: code(.untrustedAttestation)) {
            try CeremonyPolicy(requireTrustedAttestation: true).evaluate(untrusted).get()
        }
        #expect(CeremonyPolicy().evaluate(untrusted) == .meetsPolicy)
        let reported = try RegistrationVerifier(expectations: SA.registrationExpectations()).verify(response)
        #expect(reported.attestationTrust == .untrusted(reason: "no trust anchors configured for packed"))
    }
}
