import Crypto
import Foundation
import JSON
import TestSupport
import Testing

@testable import Metadata

@Suite("MetadataCatalog and MetadataBLOB: lookups, serials, skipped statements, a BLOB of real size")
struct MetadataCatalogTests {
    typealias Support = MetadataTestSupport

    @Test("lookups by AAGUID and by key identifier (either case); unknown ones are nil; the first duplicate wins")
    func lookups() throws {
        let authority = try #require(Support.authority)
        let attestation = try authority.attestationCA(aaguid: Support.aaguid(7))
        let keyIdentifier = Hex.encode(attestation.leaf.publicKeyIdentifier)
        let entries = [
            MetadataTestAuthority.entry(
                aaguid: Support.aaguid(7), status: .fidoCertifiedL1, description: "Seven",
                attestationRoots: [attestation.root], icon: "data:image/png;base64,iVBORw0KGgo="),
            MetadataTestAuthority.entry(
                keyIdentifiers: [keyIdentifier.uppercased()], reports: [(.fidoCertified, "2019-05-01")]),
            MetadataTestAuthority.entry(aaguid: Support.aaguid(7), status: .revoked, description: "Seven again"),
        ]
        let jws = try authority.blob(serial: 9, nextUpdate: Support.day(20), entries: entries)
        let catalog = MetadataCatalog(
            blob: try MetadataBLOBVerifier(roots: [authority.root]).verify(jws, at: Support.now))
        #expect(catalog.serial == 9 && catalog.count == 3)
        #expect(MetadataDay.format(catalog.nextUpdate) == Support.day(20))
        let seven = try #require(catalog.entry(aaguid: Support.aaguid(7)))
        #expect(seven.statement?.description == "Seven")
        #expect(seven.statement?.icon == "data:image/png;base64,iVBORw0KGgo=")
        #expect(seven.statement?.attestationRootCertificates == [attestation.root])
        #expect(seven.statement?.protocolFamily == "fido2" && seven.statement?.authenticatorVersion == 1)
        #expect(seven.statement?.attestationTypes == ["basic_full"])
        #expect(catalog.duplicateIdentifiers == [UUIDText.format(Support.aaguid(7))])
        #expect(catalog.entry(aaguid: Support.aaguid(8)) == nil)
        #expect(catalog.entry(keyIdentifier: keyIdentifier)?.statement?.description == "Test U2F Authenticator")
        #expect(catalog.entry(keyIdentifier: keyIdentifier.uppercased()) != nil)
        #expect(catalog.entry(keyIdentifier: "00") == nil)
    }

    @Test("an entry whose statement does not parse is kept without it and counted; the BLOB loads")
    func skippedStatement() throws {
        let authority = try #require(Support.authority)
        var broken = MetadataTestAuthority.entry(aaguid: Support.aaguid(2))
        if case .object(var members) = broken, let index = members.firstIndex(where: { $0.key == "metadataStatement" })
        {
            members[index] = JSONMember(
                key: "metadataStatement",
                value: .object([JSONMember(key: "attestationRootCertificates", value: .array([.string("AAAA")]))]))
            broken = .object(members)
        }
        let entries = [broken, MetadataTestAuthority.entry(aaguid: Support.aaguid(3))]
        let jws = try authority.blob(serial: 1, nextUpdate: Support.day(20), entries: entries)
        let blob = try MetadataBLOBVerifier(roots: [authority.root]).verify(jws, at: Support.now)
        #expect(blob.entries.count == 2)
        #expect(blob.skippedStatements == 1)
        #expect(blob.skippedStatementReasons.first?.hasPrefix("entries[0]") == true)
        #expect(blob.entries[0].statement == nil && blob.entries[0].statusReports.count == 1)
        #expect(blob.entries[1].statement != nil)
    }

    @Test("a BLOB the size of the real one (about 5 MB, 1,000 entries with statements and roots) loads")
    func realSize() throws {
        let authority = try #require(Support.authority)
        let attestation = try authority.attestationCA(aaguid: Support.aaguid(0))
        let icon = "data:image/png;base64," + Data(repeating: 0x42, count: 3_000).base64EncodedString()
        var entries: [JSONValue] = []
        for index in 0..<1_000 {
            var aaguid = Support.aaguid(0)
            aaguid[0] = UInt8(index >> 8)
            aaguid[1] = UInt8(index & 0xFF)
            entries.append(
                MetadataTestAuthority.entry(
                    aaguid: aaguid, reports: [(.fidoCertified, "2019-01-01"), (.fidoCertifiedL1, "2020-01-01")],
                    description: "Authenticator \(index)", attestationRoots: [attestation.root, authority.root],
                    icon: icon))
        }
        let jws = try authority.blob(serial: 300, nextUpdate: Support.day(30), entries: entries, alg: .rs256)
        #expect(jws.utf8.count > 4_000_000)
        let catalog = MetadataCatalog(
            blob: try MetadataBLOBVerifier(roots: [authority.root]).verify(jws, at: Support.now))
        #expect(catalog.count == 1_000)
        #expect(catalog.blob.skippedStatements == 0)
        var last = Support.aaguid(0)
        (last[0], last[1]) = (0x03, 0xE7)
        #expect(catalog.entry(aaguid: last)?.statement?.description == "Authenticator 999")
    }
}
