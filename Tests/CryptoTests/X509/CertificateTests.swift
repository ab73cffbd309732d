import Crypto
import Foundation
import TestSupport
import Testing

@Suite("Certificate")
struct CertificateTests {
    static func fixture(_ name: String) throws -> Certificate {
        try Certificate.certificates(fromPEM: TestFixtures.text("trust/\(name)"))[0]
    }

    @Test("the Apple WebAuthn root parses into the fields openssl x509 -text shows")
    func appleRoot() throws {
        let cert = try Self.fixture("apple_webauthn_root_ca.pem")
        #expect(cert.version == 3)
        #expect(Hex.encode(cert.serialNumber) == "681d016c7a3ce30225a5019428475771")
        #expect(cert.subject.values(forOID: DistinguishedName.AttributeOID.commonName) == ["Apple WebAuthn Root CA"])
        #expect(cert.subject.values(forOID: DistinguishedName.AttributeOID.organizationName) == ["Apple Inc."])
        #expect(cert.issuer == cert.subject)
        #expect(!cert.subject.isEmpty)
        // Not Before: Mar 18 18:21:32 2020 GMT, Not After: Mar 15 00:00:00 2045 GMT
        #expect(cert.notValidBefore == Date(timeIntervalSince1970: 1_584_555_692))
        #expect(cert.notValidAfter == Date(timeIntervalSince1970: 2_373_148_800))
        #expect(cert.signatureAlgorithmOID == "1.2.840.10045.4.3.3")  // ecdsa-with-SHA384
        #expect(cert.isCA == true)
        #expect(cert.extendedKeyUsage.isEmpty)
        #expect(cert.extension(oid: CertificateExtension.OID.basicConstraints)?.isCritical == true)
        #expect(cert.extension(oid: CertificateExtension.OID.keyUsage)?.isCritical == true)
        guard case .ec(let key) = try cert.publicKey() else {
            Issue.record("expected an EC key")
            return
        }
        #expect(key.curve == .p384)
        #expect(Hex.encode(Array(key.x963Representation.prefix(4))) == "04224243")
        #expect(
            try PublicKey(derRepresentation: cert.subjectPublicKeyInfoDER).derRepresentation
                == cert.subjectPublicKeyInfoDER)
    }

    @Test("a serial number with the high bit set keeps its leading zero byte; RSA keys decode")
    func googleRoot() throws {
        let cert = try Self.fixture("google_hardware_attestation_root_1.pem")
        #expect(Hex.encode(cert.serialNumber) == "00e8fa196314d2fa18")
        #expect(cert.subject.values(forOID: "2.5.4.5") == ["f92009e853b6b045"])
        guard case .rsa(let key) = try cert.publicKey() else {
            Issue.record("expected an RSA key")
            return
        }
        #expect(key.modulus.count * 8 >= 4096)
    }

    @Test("every shipped trust root parses")
    func allRoots() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: TestFixtures.url("trust").path)
            .filter { $0.hasSuffix(".pem") }
        #expect(names.count == 9)
        for name in names {
            let certs = try Certificate.certificates(fromPEM: TestFixtures.text("trust/\(name)"))
            #expect(certs.count == 1, "\(name)")
            #expect(certs.first?.isCA == true || certs.first?.version == 1, "\(name)")
        }
    }

    @Test("extensions from the test PKI: EKU OIDs, FIDO AAGUID extension, basicConstraints cA false")
    func leafExtensions() throws {
        let leaf = TestChain.shared.leaf
        #expect(leaf.isCA == false)
        #expect(leaf.extendedKeyUsage == ["1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2"])
        let aaguid = try #require(leaf.extension(oid: CertificateExtension.OID.fidoAAGUID))
        #expect(!aaguid.isCritical)
        #expect(try DERNode.parse(aaguid.value).octetString() == TestChain.aaguid)
        #expect(
            leaf.subject.values(forOID: DistinguishedName.AttributeOID.organizationalUnitName) == [
                "Authenticator Attestation"
            ])
        #expect(leaf.serialNumber == [0x12, 0x34])
        #expect(leaf.signatureAlgorithmOID == "1.2.840.10045.4.3.2")
    }

    @Test("isValidSignature checks with the certificate's key")
    func signatureWithCertificateKey() throws {
        // Verify the intermediate's signature on the leaf: TBSCertificate is the first child.
        let pki = TestChain.shared
        let parts = try DERNode.parse(pki.leaf.derEncoded).children()
        #expect(parts.count == 3)
        let tbs = parts[0].encoded
        let signature = try parts[2].bitStringBytes()
        #expect(pki.intermediate.isValidSignature(signature, for: tbs, hash: .sha256))
        #expect(!pki.root.isValidSignature(signature, for: tbs, hash: .sha256))
        #expect(!pki.intermediate.isValidSignature(signature, for: tbs + [0], hash: .sha256))
    }

    @Test("PEM bundles yield every certificate in order")
    func bundle() throws {
        let text =
            try TestFixtures.text("trust/globalsign_r2.pem") + "\n# comment\n"
            + TestFixtures.text("trust/apple_webauthn_root_ca.pem")
        let certs = try Certificate.certificates(fromPEM: text)
        #expect(certs.count == 2)
        #expect(
            certs[1].subject.values(forOID: DistinguishedName.AttributeOID.commonName) == ["Apple WebAuthn Root CA"])
    }

    @Test("trailing bytes after the DER are refused with .invalidCertificate")
    func trailingBytes() throws {
        let der = try Self.fixture("apple_webauthn_root_ca.pem").derEncoded
        #expect(throws: CryptoError(.invalidCertificate, "")) { try Certificate(derEncoded: der + [0]) }
    }

    @Test("garbage, empty and truncated input are refused with .invalidCertificate")
    func garbage() throws {
        let der = try Self.fixture("apple_webauthn_root_ca.pem").derEncoded
        #expect(throws: CryptoError(.invalidCertificate, "")) { try Certificate(derEncoded: []) }
        #expect(throws: CryptoError(.invalidCertificate, "")) {
            try Certificate(derEncoded: [0x30, 0x03, 0x02, 0x01, 0x01])
        }
        #expect(throws: CryptoError(.invalidCertificate, "")) { try Certificate(derEncoded: Array(der.dropLast())) }
    }

    @Test("PEM without a certificate block is refused with .invalidCertificate")
    func noBlock() {
        #expect(throws: CryptoError(.invalidCertificate, "")) { try Certificate.certificates(fromPEM: "hello") }
    }

    @Test("an unterminated PEM block is refused with .invalidCertificate")
    func unterminated() throws {
        let text = try TestFixtures.text("trust/apple_webauthn_root_ca.pem")
        let cut = text.replacingOccurrences(of: "-----END CERTIFICATE-----", with: "")
        #expect(throws: CryptoError(.invalidCertificate, "")) { try Certificate.certificates(fromPEM: cut) }
    }

    @Test("an END without BEGIN and a nested BEGIN are refused with .invalidCertificate")
    func misnested() {
        #expect(throws: CryptoError(.invalidCertificate, "")) {
            try Certificate.certificates(fromPEM: "-----END CERTIFICATE-----\n")
        }
        #expect(throws: CryptoError(.invalidCertificate, "")) {
            try Certificate.certificates(fromPEM: "-----BEGIN CERTIFICATE-----\n-----BEGIN CERTIFICATE-----\n")
        }
    }

    @Test("a PEM body that is not base64 is refused with .invalidCertificate")
    func badBase64() {
        #expect(throws: CryptoError(.invalidCertificate, "")) {
            try Certificate.certificates(fromPEM: "-----BEGIN CERTIFICATE-----\n!!!!\n-----END CERTIFICATE-----\n")
        }
    }

    // MARK: structure checks, each tripped by one edited byte run of a valid certificate

    /// `bytes` with the `occurrence`-th (0-based) run equal to `pattern` replaced by `replacement`.
    static func edited(_ bytes: [UInt8], _ pattern: [UInt8], _ replacement: [UInt8], occurrence: Int = 0) -> [UInt8] {
        var seen = 0
        for start in 0...(bytes.count - pattern.count) where Array(bytes[start..<start + pattern.count]) == pattern {
            if seen == occurrence {
                return Array(bytes[..<start]) + replacement + Array(bytes[(start + pattern.count)...])
            }
            seen += 1
        }
        Issue.record("pattern \(Hex.encode(pattern)) not found")
        return bytes
    }

    static let ecdsaWithSHA256 = Hex.decode("06082a8648ce3d040302")
    static let ecdsaWithSHA384 = Hex.decode("06082a8648ce3d040303")

    @Test("an unknown version (v6) is refused with .invalidCertificate")
    func unknownVersion() throws {
        let der = TestChain.shared.leaf.derEncoded
        let edited = Self.edited(der, [0xA0, 0x03, 0x02, 0x01, 0x02], [0xA0, 0x03, 0x02, 0x01, 0x05])
        #expect(throws: CryptoError(.invalidCertificate, "")) { try Certificate(derEncoded: edited) }
    }

    @Test("an outer signatureAlgorithm that differs from the TBS one is refused with .invalidCertificate")
    func signatureAlgorithmMismatch() throws {
        let der = TestChain.shared.leaf.derEncoded
        // The second occurrence is the outer Certificate.signatureAlgorithm.
        let edited = Self.edited(der, Self.ecdsaWithSHA256, Self.ecdsaWithSHA384, occurrence: 1)
        #expect(throws: CryptoError(.invalidCertificate, "")) { try Certificate(derEncoded: edited) }
    }

    @Test("a duplicate extension is refused with .invalidCertificate")
    func duplicateExtension() throws {
        // Turn the extKeyUsage OID (2.5.29.37) into a second basicConstraints (2.5.29.19).
        let der = TestChain.shared.leaf.derEncoded
        let edited = Self.edited(der, [0x06, 0x03, 0x55, 0x1D, 0x25], [0x06, 0x03, 0x55, 0x1D, 0x13])
        #expect(throws: CryptoError(.invalidCertificate, "")) { try Certificate(derEncoded: edited) }
    }

    @Test("a basicConstraints cA that is not DER TRUE/FALSE is refused with .invalidCertificate")
    func malformedBasicConstraints() throws {
        let der = TestChain.shared.intermediate.derEncoded
        let edited = Self.edited(der, [0x30, 0x03, 0x01, 0x01, 0xFF], [0x30, 0x03, 0x01, 0x01, 0x01])
        #expect(throws: CryptoError(.invalidCertificate, "")) { try Certificate(derEncoded: edited) }
    }

    @Test("an extKeyUsage entry that is not an OID is refused with .invalidCertificate")
    func malformedExtendedKeyUsage() throws {
        let der = TestChain.shared.leaf.derEncoded
        let serverAuth = Hex.decode("06082b06010505070301")
        let edited = Self.edited(der, serverAuth, [0x04] + serverAuth.dropFirst())
        #expect(throws: CryptoError(.invalidCertificate, "")) { try Certificate(derEncoded: edited) }
    }

    @Test("certificates compare by DER")
    func equality() throws {
        let pki = TestChain.shared
        #expect(try Certificate(derEncoded: pki.leaf.derEncoded) == pki.leaf)
        #expect(pki.leaf != pki.root)
    }
}
