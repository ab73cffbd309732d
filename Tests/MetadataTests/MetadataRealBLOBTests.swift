import Crypto
import Foundation
import TestSupport
import Testing

@testable import Metadata

@Suite("A published MDS3 BLOB: the FIDO Metadata Service specification's example (Fixtures/README.md)")
struct MetadataRealBLOBTests {
    typealias Support = MetadataTestSupport

    /// The pinned time of use: 2021-05-01, inside the example chain's validity (2021-04-19 … 2031-04-17).
    static let timeOfUse = Date(timeIntervalSince1970: 1_619_827_200)

    func fixture() throws -> (jws: String, root: Certificate) {
        let jws = try Support.fixture("fido-mds3-example-blob.jwt")
        let root = try Certificate.certificates(fromPEM: Support.fixture("fido-mds3-example-root.pem"))[0]
        return (jws, root)
    }

    @Test("its ES256 signature and x5c chain verify to the example root at the pinned time; its entries parse")
    func structure() throws {
        let (jws, root) = try fixture()
        let blob = try MetadataBLOBVerifier(roots: [root]).verifySignedPayload(jws, at: Self.timeOfUse)
        #expect(blob.serial == 15)
        #expect(MetadataDay.format(blob.nextUpdate) == "2020-03-30")
        #expect(blob.legalHeader.hasPrefix("Retrieval and use of this BLOB indicates acceptance"))
        #expect(blob.entries.count == 2)
        #expect(blob.skippedStatements == 0)
        let uaf = blob.entries[0]
        #expect(uaf.aaid == "1234#5678" && uaf.aaguid == nil)
        #expect(uaf.statement?.description == "FIDO Alliance Sample UAF Authenticator")
        #expect(uaf.statement?.protocolFamily == "uaf")
        let catalog = MetadataCatalog(blob: blob)
        let aaguid = try #require(MetadataEntry.aaguid(text: "0132d110-bf4e-4208-a403-ab4f5f12efe5"))
        let fido2 = try #require(catalog.entry(aaguid: aaguid))
        #expect(fido2.statement?.description == "FIDO Alliance Sample FIDO2 Authenticator")
        #expect(fido2.statement?.attestationRootCertificates.count == 1)
        #expect(fido2.statement?.icon?.hasPrefix("data:image/png;base64,") == true)
        #expect(fido2.statement?.authenticatorVersion == 5)
        #expect(fido2.statusReports.map(\.status) == [.fidoCertified, .fidoCertifiedL1])
        #expect(fido2.statusReports.last?.certificateNumber == "FIDO2100020151221001")
        #expect(MetadataDay.format(try #require(fido2.timeOfLastStatusChange)) == "2019-01-04")
        #expect(fido2.latestStatus(at: Self.timeOfUse) == .fidoCertifiedL1)
        #expect(fido2.certification(at: Self.timeOfUse) == .l1)
        #expect(fido2.compromise(at: Self.timeOfUse) == nil)
        #expect(fido2.certification(at: try MetadataDay.parse("2020-01-01", field: "t")) == .l1)
    }

    @Test("as published it is stale at any time its chain is valid: nextUpdate 2020-03-30 precedes the chain")
    func stale() throws {
        let (jws, root) = try fixture()
        #expect(throws: MetadataError(.stale, "")) {
            try MetadataBLOBVerifier(roots: [root]).verify(jws, at: Self.timeOfUse)
        }
        // Before the chain's validity, the chain is what fails.
        #expect(throws: MetadataError(.untrustedChain, "")) {
            try MetadataBLOBVerifier(roots: [root]).verify(jws, at: Date(timeIntervalSince1970: 1_585_526_400))
        }
        // The FIDO production root does not anchor the example chain.
        #expect(throws: MetadataError(.untrustedChain, "")) {
            try MetadataBLOBVerifier(roots: BuiltinMetadataRoot.certificates).verifySignedPayload(
                jws, at: Self.timeOfUse)
        }
    }
}
