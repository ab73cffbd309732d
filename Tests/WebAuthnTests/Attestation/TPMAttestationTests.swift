import CBOR
import Crypto
import Foundation
import Testing

@testable import WebAuthn

@Suite("tpm attestation (WebAuthn L3 §8.3)")
struct TPMAttestationTests {
    static let recorded = [
        "reg-tpm.verify_attestation_dell_xps_13",
        "reg-tpm.verify_attestation_lenovo_carbon_x1",
        "reg-tpm.verify_attestation_surface_pro_4",
        "reg-tpm.verify_tpm_with_ecc_public_area_type",
    ]
    /// An RSA pubArea with alg RS1 (Dell XPS 13).
    static let rsaFixture = "reg-tpm.verify_attestation_dell_xps_13"
    /// An ECC pubArea with alg RS1.
    static let eccFixture = "reg-tpm.verify_tpm_with_ecc_public_area_type"

    // MARK: recorded ceremonies

    @Test("recorded TPM ceremonies verify as AttCA with the x5c trust path", arguments: recorded)
    func recordedCeremonyVerifies(name: String) throws {
        let fixture = try RecordedAttestation(name)
        #expect(fixture.fmt == TPMAttestation.identifier)
        let result = try TPMAttestation().verify(fixture.input())
        #expect(result.type == .attCA)
        #expect(result.trustPath.count == fixture.statement[text: "x5c"]?.arrayValue?.count)
    }

    // MARK: statement syntax

    @Test("attStmt that is not a map is refused")
    func statementNotMap() throws {
        let fixture = try RecordedAttestation(Self.rsaFixture)
        #expect(code(fixture, .array([])) == .tpmMalformedStatement)
    }

    @Test("ver other than 2.0 is refused")
    func wrongVersion() throws {
        let fixture = try RecordedAttestation(Self.rsaFixture)
        #expect(code(fixture, fixture.statement(setting: "ver", to: .text("1.2"))) == .tpmUnsupportedVersion)
    }

    @Test("missing or mistyped fields are refused", arguments: ["ver", "alg", "sig", "certInfo", "pubArea"])
    func missingField(key: String) throws {
        let fixture = try RecordedAttestation(Self.rsaFixture)
        #expect(code(fixture, fixture.statement(setting: key, to: nil)) == .tpmMalformedStatement)
        #expect(code(fixture, fixture.statement(setting: key, to: .bool(true))) == .tpmMalformedStatement)
    }

    @Test("alg that is unknown, or EdDSA (no hash for extraData), is refused", arguments: [-999, -8])
    func unsupportedAlgorithm(alg: Int) throws {
        let fixture = try RecordedAttestation(Self.rsaFixture)
        #expect(code(fixture, fixture.statement(setting: "alg", to: CBORValue(alg))) == .unsupportedAlgorithm)
    }

    @Test("ecdaaKeyId is refused: ECDAA is not supported")
    func ecdaa() throws {
        let fixture = try RecordedAttestation(Self.rsaFixture)
        let statement = fixture.statement(setting: "ecdaaKeyId", to: .bytes([1, 2, 3]))
        #expect(code(fixture, statement) == .tpmECDAANotSupported)
    }

    @Test("missing or empty x5c is refused")
    func missingCertificate() throws {
        let fixture = try RecordedAttestation(Self.rsaFixture)
        #expect(code(fixture, fixture.statement(setting: "x5c", to: nil)) == .tpmMissingCertificate)
        #expect(code(fixture, fixture.statement(setting: "x5c", to: .array([]))) == .tpmMissingCertificate)
    }

    @Test("an x5c entry that is not a certificate is refused")
    func invalidCertificate() throws {
        let fixture = try RecordedAttestation(Self.rsaFixture)
        #expect(
            code(fixture, fixture.statement(setting: "x5c", to: .array([.bytes([0x30, 0x00])])))
                == .tpmInvalidCertificate)
        #expect(code(fixture, fixture.statement(setting: "x5c", to: .array([.text("cert")]))) == .tpmInvalidCertificate)
    }

    @Test("authenticator data without attested credential data is refused")
    func noAttestedCredentialData() throws {
        let fixture = try RecordedAttestation(Self.rsaFixture)
        let input = fixture.input(authenticatorData: try authenticatorDataWithoutCredential())
        #expect(
            errorCode { () throws(WebAuthnError) in _ = try TPMAttestation().verify(input) }
                == .missingAttestedCredentialData)
    }

    // MARK: pubArea

    @Test("a truncated pubArea is a typed error at every length")
    func truncatedPublicArea() throws {
        let fixture = try RecordedAttestation(Self.eccFixture)
        let pubArea = try fixture.bytes("pubArea")
        for length in 0..<pubArea.count {
            let statement = fixture.statement(setting: "pubArea", to: .bytes(Array(pubArea.prefix(length))))
            #expect(code(fixture, statement) == .tpmMalformedPublicArea)
        }
    }

    @Test("a pubArea with trailing bytes or an unknown type is refused")
    func malformedPublicArea() throws {
        let fixture = try RecordedAttestation(Self.rsaFixture)
        let pubArea = try fixture.bytes("pubArea")
        #expect(
            code(fixture, fixture.statement(setting: "pubArea", to: .bytes(pubArea + [0]))) == .tpmMalformedPublicArea)
        var keyedHash = pubArea
        keyedHash[1] = 0x08  // TPM_ALG_KEYEDHASH
        #expect(code(fixture, fixture.statement(setting: "pubArea", to: .bytes(keyedHash))) == .tpmMalformedPublicArea)
    }

    @Test("an RSA pubArea whose modulus or exponent differs from the credential key is refused")
    func rsaKeyMismatch() throws {
        let fixture = try RecordedAttestation(Self.rsaFixture)
        let pubArea = try fixture.bytes("pubArea")
        let modulus = flipping(pubArea, at: pubArea.count - 1)
        #expect(code(fixture, fixture.statement(setting: "pubArea", to: .bytes(modulus))) == .tpmPublicKeyMismatch)
        // type(2) nameAlg(2) objectAttributes(4) authPolicy(2+32) symmetric(2) scheme(2) keyBits(2) exponent(4)
        var exponent = pubArea
        exponent[51] = 3
        #expect(code(fixture, fixture.statement(setting: "pubArea", to: .bytes(exponent))) == .tpmPublicKeyMismatch)
    }

    @Test("an ECC pubArea whose point or curve differs from the credential key is refused")
    func eccKeyMismatch() throws {
        let fixture = try RecordedAttestation(Self.eccFixture)
        let pubArea = try fixture.bytes("pubArea")
        let point = flipping(pubArea, at: pubArea.count - 1)
        #expect(code(fixture, fixture.statement(setting: "pubArea", to: .bytes(point))) == .tpmPublicKeyMismatch)
        // type(2) nameAlg(2) objectAttributes(4) authPolicy(2+32) symmetric(2) scheme(2) curveID(2)
        var curve = pubArea
        curve[47] = 0x04  // TPM_ECC_NIST_P384
        #expect(code(fixture, fixture.statement(setting: "pubArea", to: .bytes(curve))) == .tpmPublicKeyMismatch)
        // ... x(TPM2B) at offset 50: a 33-byte x with a leading zero is longer than a P-256 coordinate.
        let longX = Array(pubArea[..<50]) + [0x00, 0x21, 0x00] + Array(pubArea[52...])
        #expect(code(fixture, fixture.statement(setting: "pubArea", to: .bytes(longX))) == .tpmPublicKeyMismatch)
    }

    @Test("an RSA pubArea for an EC credential is refused")
    func keyTypeMismatch() throws {
        let rsa = try RecordedAttestation(Self.rsaFixture)
        let ecc = try RecordedAttestation(Self.eccFixture)
        let statement = ecc.statement(setting: "pubArea", to: .bytes(try rsa.bytes("pubArea")))
        #expect(code(ecc, statement) == .tpmPublicKeyMismatch)
    }

    // MARK: certInfo

    @Test("a truncated certInfo is a typed error at every length")
    func truncatedCertInfo() throws {
        let fixture = try RecordedAttestation(Self.rsaFixture)
        let certInfo = try fixture.bytes("certInfo")
        for length in 0..<certInfo.count {
            let statement = fixture.statement(setting: "certInfo", to: .bytes(Array(certInfo.prefix(length))))
            let failure = code(fixture, statement)
            // Cut inside the header: malformed. The header parses but attested is short: also malformed.
            #expect(failure == .tpmMalformedCertInfo, "length \(length): \(String(describing: failure))")
        }
    }

    @Test("certInfo with trailing bytes after TPMS_CERTIFY_INFO is refused")
    func trailingCertInfo() throws {
        let fixture = try RecordedAttestation(Self.rsaFixture)
        let certInfo = try fixture.bytes("certInfo") + [0]
        #expect(code(fixture, fixture.statement(setting: "certInfo", to: .bytes(certInfo))) == .tpmMalformedCertInfo)
    }

    @Test("certInfo.magic other than TPM_GENERATED_VALUE is refused")
    func wrongMagic() throws {
        let fixture = try RecordedAttestation(Self.rsaFixture)
        let certInfo = flipping(try fixture.bytes("certInfo"), at: 0)
        #expect(code(fixture, fixture.statement(setting: "certInfo", to: .bytes(certInfo))) == .tpmInvalidMagic)
    }

    @Test("certInfo.type other than TPM_ST_ATTEST_CERTIFY is refused")
    func wrongType() throws {
        let fixture = try RecordedAttestation(Self.rsaFixture)
        let certInfo = flipping(try fixture.bytes("certInfo"), at: 5)
        #expect(code(fixture, fixture.statement(setting: "certInfo", to: .bytes(certInfo))) == .tpmInvalidAttestType)
    }

    @Test("certInfo.extraData that is not hash(authData || clientDataHash) is refused")
    func wrongExtraData() throws {
        let fixture = try RecordedAttestation(Self.rsaFixture)
        let certInfo = try fixture.bytes("certInfo")
        let layout = try CertInfoLayout(certInfo)
        let flipped = flipping(certInfo, at: layout.extraDataOffset)
        #expect(code(fixture, fixture.statement(setting: "certInfo", to: .bytes(flipped))) == .tpmExtraDataMismatch)
        // The same certInfo against another clientDataHash.
        #expect(
            errorCode { () throws(WebAuthnError) in
                _ = try TPMAttestation().verify(fixture.input(clientDataHash: [UInt8](repeating: 7, count: 32)))
            } == .tpmExtraDataMismatch
        )
        // alg RS256 asks for a SHA-256 extraData, the TPM put SHA-1.
        let rs256 = fixture.statement(setting: "alg", to: CBORValue(COSEAlgorithm.rs256.rawValue))
        #expect(code(fixture, rs256) == .tpmExtraDataMismatch)
    }

    @Test("certInfo.attested.name that is not the name of pubArea is refused")
    func wrongName() throws {
        let fixture = try RecordedAttestation(Self.rsaFixture)
        let certInfo = try fixture.bytes("certInfo")
        let layout = try CertInfoLayout(certInfo)
        let flipped = flipping(certInfo, at: layout.nameOffset + 5)
        #expect(code(fixture, fixture.statement(setting: "certInfo", to: .bytes(flipped))) == .tpmNameMismatch)
        // pubArea fields outside the key (objectAttributes) change the name, not the key.
        let pubArea = flipping(try fixture.bytes("pubArea"), at: 7)
        #expect(code(fixture, fixture.statement(setting: "pubArea", to: .bytes(pubArea))) == .tpmNameMismatch)
        // A nameAlg that is not a hash cannot name anything.
        var nullNameAlg = try fixture.bytes("pubArea")
        nullNameAlg[3] = 0x10  // TPM_ALG_NULL
        #expect(code(fixture, fixture.statement(setting: "pubArea", to: .bytes(nullNameAlg))) == .tpmNameMismatch)
    }

    @Test("sig that does not verify over certInfo with the AIK key is refused")
    func badSignature() throws {
        let fixture = try RecordedAttestation(Self.rsaFixture)
        let sig = flipping(try fixture.bytes("sig"), at: 10)
        #expect(code(fixture, fixture.statement(setting: "sig", to: .bytes(sig))) == .badSignature)
        // certInfo fields WebAuthn ignores (clockInfo) are still signed.
        let certInfo = try fixture.bytes("certInfo")
        let layout = try CertInfoLayout(certInfo)
        let clock = flipping(certInfo, at: layout.clockInfoOffset)
        #expect(code(fixture, fixture.statement(setting: "certInfo", to: .bytes(clock))) == .badSignature)
    }

    // MARK: AIK certificate requirements (§8.3.1), with a self-made AIK that re-signs certInfo

    @Test("a certInfo re-signed with a self-made conforming AIK (ES256) verifies")
    func selfMadeAIKVerifies() throws {
        let fixture = try RecordedAttestation(Self.eccFixture)
        let result = try TPMAttestation().verify(
            fixture.input(statement: try resigned(fixture, TPMTestVectors.tpmValid)))
        #expect(result.type == .attCA)
        let noAAGUID = try resigned(fixture, TPMTestVectors.tpmNoAAGUID)
        #expect(try TPMAttestation().verify(fixture.input(statement: noAAGUID)).trustPath.count == 1)
    }

    @Test(
        "an AIK certificate that misses a §8.3.1 requirement is refused",
        arguments: [
            (TPMTestVectors.tpmVersion1, WebAuthnError.Code.tpmCertificateVersion),
            (TPMTestVectors.tpmSubject, .tpmCertificateSubjectNotEmpty),
            (TPMTestVectors.tpmNoSAN, .tpmCertificateSubjectAltName),
            (TPMTestVectors.tpmSANNotCritical, .tpmCertificateSubjectAltName),
            (TPMTestVectors.tpmSANNoModel, .tpmCertificateSubjectAltName),
            (TPMTestVectors.tpmNoAIKUsage, .tpmCertificateExtendedKeyUsage),
            (TPMTestVectors.tpmCA, .tpmCertificateBasicConstraints),
            (TPMTestVectors.tpmNoBasicConstraints, .tpmCertificateBasicConstraints),
            (TPMTestVectors.tpmAAGUIDMismatch, .tpmAAGUIDMismatch),
        ]
    )
    func aikRequirement(certificate: [UInt8], expected: WebAuthnError.Code) throws {
        let fixture = try RecordedAttestation(Self.eccFixture)
        #expect(code(fixture, try resigned(fixture, certificate)) == expected)
    }

    // MARK: helpers

    private func code(_ fixture: RecordedAttestation, _ statement: CBORValue) -> WebAuthnError.Code? {
        errorCode { () throws(WebAuthnError) in
            _ = try TPMAttestation().verify(fixture.input(statement: statement))
        }
    }

    /// A statement for `fixture`'s pubArea whose certInfo is built here and signed ES256 by the self-made
    /// AIK key, with `certificate` as the only x5c entry.
    private func resigned(_ fixture: RecordedAttestation, _ certificate: [UInt8]) throws -> CBORValue {
        let pubArea = try fixture.bytes("pubArea")
        let extraData = Digest.sha256(fixture.authenticatorData.rawBytes + fixture.clientDataHash)
        let name: [UInt8] = [0x00, 0x0B] + Digest.sha256(pubArea)  // nameAlg SHA-256 in the ECC fixture
        func sized(_ bytes: [UInt8]) -> [UInt8] { [UInt8(bytes.count >> 8), UInt8(bytes.count & 0xff)] + bytes }
        let certInfo: [UInt8] =
            [0xff, 0x54, 0x43, 0x47, 0x80, 0x17] + sized([]) + sized(extraData)
            + [UInt8](repeating: 0, count: 17 + 8) + sized(name) + sized([])
        let key = try P256SigningKey(pkcs8DERRepresentation: TPMTestVectors.tpmAIKKey)
        return .map([
            CBORMapEntry(key: .text("ver"), value: .text("2.0")),
            CBORMapEntry(key: .text("alg"), value: CBORValue(COSEAlgorithm.es256.rawValue)),
            CBORMapEntry(key: .text("x5c"), value: .array([.bytes(certificate)])),
            CBORMapEntry(key: .text("sig"), value: .bytes(try key.signature(for: certInfo))),
            CBORMapEntry(key: .text("certInfo"), value: .bytes(certInfo)),
            CBORMapEntry(key: .text("pubArea"), value: .bytes(pubArea)),
        ])
    }
}

/// Offsets inside a recorded certInfo, read from its size fields (TPM 2.0 Part 2 §10.12.12).
struct CertInfoLayout {
    let extraDataOffset: Int
    let clockInfoOffset: Int
    let nameOffset: Int

    init(_ certInfo: [UInt8]) throws {
        try #require(certInfo.count > 60)
        let qualifiedSignerSize = Int(certInfo[6]) << 8 | Int(certInfo[7])
        let extraDataSizeOffset = 8 + qualifiedSignerSize
        let extraDataSize = Int(certInfo[extraDataSizeOffset]) << 8 | Int(certInfo[extraDataSizeOffset + 1])
        extraDataOffset = extraDataSizeOffset + 2
        clockInfoOffset = extraDataOffset + extraDataSize
        nameOffset = clockInfoOffset + 17 + 8 + 2
    }
}

@Suite("tpm structure parsers: robustness")
struct TPMStructureRobustnessTests {
    @Test("a flipped bit at every offset of pubArea and certInfo gives a typed error, never a trap")
    func flippedEveryByte() throws {
        let fixture = try RecordedAttestation(TPMAttestationTests.eccFixture)
        for key in ["pubArea", "certInfo"] {
            let original = try fixture.bytes(key)
            for offset in original.indices {
                let statement = fixture.statement(setting: key, to: .bytes(flipping(original, at: offset)))
                let failure = errorCode { () throws(WebAuthnError) in
                    _ = try TPMAttestation().verify(fixture.input(statement: statement))
                }
                #expect(failure != nil, "\(key) offset \(offset) verified")
            }
        }
    }
}
