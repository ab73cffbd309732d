import Crypto
import Foundation
import TestSupport
import Testing

@Suite("CertificateRevocationList, TrustStore with CRLs, Certificate.publicKeyIdentifier")
struct CertificateRevocationListTests {
    /// One test CA (root → intermediate → signers) with CRLs, shared by the suite.
    static let authority: MetadataTestAuthority? = try? MetadataTestAuthority()

    @Test("a CRL parses from PEM and DER alike, naming its issuer and update times")
    func parses() throws {
        let authority = try #require(Self.authority)
        let crl = try authority.crl(issuer: .intermediate, revoking: [authority.rsaSigner], days: 7)
        #expect(crl.issuerDER == authority.intermediate.subject.derEncoded)
        let nextUpdate = try #require(crl.nextUpdate)
        #expect(abs(nextUpdate.timeIntervalSince(crl.thisUpdate) - 7 * 86_400) < 5)
        #expect(try CertificateRevocationList(der: crl.derEncoded) == crl)
        let pem =
            "-----BEGIN X509 CRL-----\n" + Data(crl.derEncoded).base64EncodedString(options: .lineLength64Characters)
            + "\n-----END X509 CRL-----\n"
        #expect(try CertificateRevocationList(pem: "comment\n" + pem) == crl)
        #expect(throws: CryptoError(.invalidCertificate, "")) { try CertificateRevocationList(pem: pem + pem) }
        #expect(throws: CryptoError(.invalidCertificate, "")) { try CertificateRevocationList(pem: "") }
        #expect(throws: CryptoError(.invalidCertificate, "")) { try CertificateRevocationList(der: []) }
        #expect(throws: CryptoError(.invalidCertificate, "")) {
            try CertificateRevocationList(der: crl.derEncoded + [0])
        }
        #expect(throws: CryptoError(.invalidCertificate, "")) {
            try CertificateRevocationList(der: Array(crl.derEncoded.prefix(crl.derEncoded.count / 2)))
        }
        #expect(throws: CryptoError(.invalidCertificate, "")) {
            try CertificateRevocationList(der: authority.root.derEncoded)
        }
    }

    @Test(
        "validate with CRLs: clean passes, a listed certificate is revoked, an uncovered CA is revocation_list_missing")
    func revocation() throws {
        let authority = try #require(Self.authority)
        let store = TrustStore(roots: [authority.root])
        // After the CRLs' thisUpdate (made below, at the clock's current second).
        let now = Date().addingTimeInterval(60)
        let chain = (leaf: authority.ecSigner, intermediates: [authority.intermediate])
        let clean = [try authority.crl(issuer: .root), try authority.crl(issuer: .intermediate)]
        #expect(
            try store.validate(leaf: chain.leaf, intermediates: chain.intermediates, at: now, crls: clean).count == 3)
        let revoked = [clean[0], try authority.crl(issuer: .intermediate, revoking: [authority.ecSigner])]
        #expect(throws: CryptoError(.certificateRevoked, "")) {
            try store.validate(leaf: chain.leaf, intermediates: chain.intermediates, at: now, crls: revoked)
        }
        #expect(throws: CryptoError(.revocationListMissing, "")) {
            try store.validate(leaf: chain.leaf, intermediates: chain.intermediates, at: now, crls: [clean[0]])
        }
        // Without CRLs there is no revocation check (the existing behaviour).
        #expect(try store.validate(leaf: chain.leaf, intermediates: chain.intermediates, at: now).count == 3)
    }

    @Test("publicKeyIdentifier is SHA-1 of the subjectPublicKey bits: what openssl writes as subjectKeyIdentifier=hash")
    func keyIdentifier() throws {
        let authority = try #require(Self.authority)
        for certificate in [authority.root, authority.intermediate, authority.rsaSigner, authority.ecSigner] {
            let ski = try #require(certificate.extension(oid: "2.5.29.14"))
            let identifier = certificate.publicKeyIdentifier
            #expect(identifier.count == 20)
            // SubjectKeyIdentifier ::= KeyIdentifier (OCTET STRING)
            #expect(try DERNode.parse(ski.value).octetString() == identifier)
        }
    }
}
