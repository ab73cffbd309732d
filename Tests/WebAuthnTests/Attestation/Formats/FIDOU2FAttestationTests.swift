import CBOR
import Crypto
import Testing

@testable import WebAuthn

@Suite("FIDOU2FAttestation")
struct FIDOU2FAttestationTests {
    typealias SA = SoftwareAuthenticator
    let fixture: AttestationFixture

    init() throws { fixture = try AttestationFixture() }

    /// §8.6 step 5: 0x00 || rpIdHash || clientDataHash || credentialId || 0x04 || x || y.
    func verificationData(_ authData: [UInt8]) -> [UInt8] {
        [0x00] + Digest.sha256(Array(SA.rpID.utf8)) + fixture.clientDataHash + SA.credentialID
            + fixture.authenticator.key.publicKey.x963Representation
    }

    func input(
        aaguid: [UInt8] = Array(repeating: 0, count: 16),
        certificates: [String] = [TestCertificates.good],
        credentialKey: [UInt8]? = nil,
        signature: [UInt8]? = nil,
        dropping: String? = nil
    ) throws -> AttestationStatementInput {
        let authData = fixture.authenticator.registrationData(aaguid: aaguid, credentialKey: credentialKey)
        let sig = try signature ?? fixture.leafKey.signature(for: verificationData(authData))
        let statement = AttestationFixture.statement(
            [("sig", .bytes(sig)), ("x5c", .array(certificates.map { .bytes(AttestationFixture.der($0)) }))]
                .filter { $0.0 != dropping })
        return try fixture.input(statement, authData: authData)
    }

    @Test("a valid statement is basic attestation with the certificate as trust path")
    func valid() throws {
        let result = try FIDOU2FAttestation().verify(try input())
        #expect(result.type == .basic && result.trustPath.count == 1)
    }

    @Test("a missing sig is invalidAttestationStatement")
    func missingSig() {
        #expect(throws: code(.invalidAttestationStatement)) {
            try FIDOU2FAttestation().verify(try input(dropping: "sig"))
        }
    }

    @Test("a missing x5c is invalidAttestationStatement")
    func missingX5C() {
        #expect(throws: code(.invalidAttestationStatement)) {
            try FIDOU2FAttestation().verify(try input(dropping: "x5c"))
        }
    }

    @Test("§8.6 step 2: an x5c of two certificates is invalidAttestationStatement")
    func twoCertificates() {
        #expect(throws: code(.invalidAttestationStatement)) {
            try FIDOU2FAttestation().verify(try input(certificates: [TestCertificates.good, TestCertificates.ca]))
        }
    }

    @Test("§8.6 step 2: a certificate key not on P-256 is invalidAttestationCertificate")
    func certificateCurve() {
        #expect(throws: code(.invalidAttestationCertificate)) {
            try FIDOU2FAttestation().verify(try input(certificates: [TestCertificates.p384]))
        }
    }

    @Test("a non-zero AAGUID is not judged: §8.6 has no step on it (the W3C §16.16 vector carries one)")
    func aaguid() throws {
        let result = try FIDOU2FAttestation().verify(try input(aaguid: Array(repeating: 1, count: 16)))
        #expect(result.type == .basic)
    }

    @Test("§8.6 step 4: a credential key that is not P-256 is invalidAttestationStatement")
    func credentialCurve() throws {
        let ed = try Ed25519SigningKey()
        let okp = try CBOREncoder.encode(
            .map([
                CBORMapEntry(key: CBORValue(1), value: CBORValue(1)),
                CBORMapEntry(key: CBORValue(3), value: CBORValue(-8)),
                CBORMapEntry(key: CBORValue(-1), value: CBORValue(6)),
                CBORMapEntry(key: CBORValue(-2), value: .bytes(ed.publicKey.rawRepresentation)),
            ]))
        #expect(throws: code(.invalidAttestationStatement)) {
            try FIDOU2FAttestation().verify(try input(credentialKey: okp, signature: [0x30]))
        }
    }

    @Test("§8.6 step 6: a signature over other data is badSignature")
    func badSignature() throws {
        let wrong = try fixture.leafKey.signature(for: [0x01])
        #expect(throws: code(.badSignature)) { try FIDOU2FAttestation().verify(try input(signature: wrong)) }
    }
}
