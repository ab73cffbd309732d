import Foundation
import JSON
import TestSupport
import Testing

@testable import Metadata

@Suite("MetadataEntry: statuses and the decisions taken from them (FIDO MDS3 §3.1.3–3.1.4)")
struct MetadataEntryTests {
    static let compromises: [AuthenticatorStatus] = [
        .attestationKeyCompromise, .userVerificationBypass, .userKeyRemoteCompromise, .userKeyPhysicalCompromise,
        .revoked,
    ]

    func day(_ text: String) throws -> Date { try MetadataDay.parse(text, field: "test") }

    func entry(_ reports: [(AuthenticatorStatus, String?)]) throws -> MetadataEntry {
        MetadataEntry(
            aaguid: MetadataTestSupport.aaguid(1), statement: nil,
            statusReports: try reports.map { status, date in
                StatusReport(status: status, effectiveDate: try date.map(day))
            })
    }

    @Test("isCompromise is true for exactly the five compromise statuses; every MDS3 value is spelled as MDS does")
    func classification() {
        #expect(AuthenticatorStatus.known.count == 15)
        #expect(Set(AuthenticatorStatus.known.map(\.rawValue)).count == 15)
        for status in AuthenticatorStatus.known {
            #expect(status.isCompromise == Self.compromises.contains(status), "\(status)")
        }
        #expect(AuthenticatorStatus.known.map(\.rawValue).contains("FIDO_CERTIFIED_L1plus"))
        // An unknown future value is kept, and means neither compromise nor certification.
        let future = AuthenticatorStatus(rawValue: "FIDO_CERTIFIED_L4")
        #expect(future.rawValue == "FIDO_CERTIFIED_L4" && !future.isCompromise && future.certificationLevel == nil)
        #expect(AuthenticatorStatus.fidoCertified.certificationLevel == .l1)
        #expect(AuthenticatorStatus.fidoCertifiedL3plus.certificationLevel == .l3plus)
        #expect(AuthenticatorStatus.updateAvailable.certificationLevel == nil)
    }

    @Test("compromise(at:) is the first effective compromise report; a later UPDATE_AVAILABLE does not lift it")
    func compromise() throws {
        let reported = try entry([
            (.fidoCertifiedL1, "2020-01-01"), (.userVerificationBypass, "2022-03-01"),
            (.updateAvailable, "2022-06-01"), (.revoked, "2023-01-01"),
        ])
        #expect(reported.compromise(at: try day("2021-12-31")) == nil)
        #expect(reported.compromise(at: try day("2022-03-01"))?.status == .userVerificationBypass)
        #expect(reported.compromise(at: try day("2024-01-01"))?.status == .userVerificationBypass)
        #expect(reported.latestStatus(at: try day("2022-07-01")) == .updateAvailable)
        #expect(reported.latestStatus(at: try day("2024-01-01")) == .revoked)
        // A report without an effective date is in effect from the start.
        let undated = try entry([(.attestationKeyCompromise, nil)])
        #expect(undated.compromise(at: try day("1999-01-01"))?.status == .attestationKeyCompromise)
        // A compromise dated in the future is not yet in effect.
        let future = try entry([(.fidoCertifiedL2, "2020-01-01"), (.userKeyRemoteCompromise, "2090-01-01")])
        #expect(future.compromise(at: try day("2030-01-01")) == nil)
        #expect(future.certification(at: try day("2030-01-01")) == .l2)
        #expect(future.certification(at: try day("2090-01-02")) == nil)
    }

    @Test("each compromise status, effective, is a compromise and removes the certification", arguments: compromises)
    func eachCompromise(status: AuthenticatorStatus) throws {
        let reported = try entry([(.fidoCertifiedL3, "2020-01-01"), (status, "2021-01-01")])
        #expect(reported.compromise(at: try day("2021-01-01"))?.status == status)
        #expect(reported.certification(at: try day("2021-01-01")) == nil)
        #expect(reported.certification(at: try day("2020-12-31")) == .l3)
    }

    @Test("latestStatus(at:) orders by effective date, not BLOB order; ties go to the later report")
    func latest() throws {
        let unordered = try entry([
            (.updateAvailable, "2023-05-01"), (.fidoCertifiedL1, "2020-01-01"), (.fidoCertifiedL2, "2023-05-01"),
        ])
        #expect(unordered.latestStatus(at: try day("2022-01-01")) == .fidoCertifiedL1)
        #expect(unordered.latestStatus(at: try day("2023-05-01")) == .fidoCertifiedL2)
        #expect(try entry([]).latestStatus(at: Date()) == nil)
    }

    @Test("certification(at:) is the highest effective level; FIDO_CERTIFIED counts as L1; none without one")
    func certification() throws {
        let levels = try entry([
            (.fidoCertified, "2019-01-01"), (.fidoCertifiedL2plus, "2021-01-01"), (.fidoCertifiedL1plus, "2022-01-01"),
        ])
        #expect(levels.certification(at: try day("2020-01-01")) == .l1)
        #expect(levels.certification(at: try day("2022-06-01")) == .l2plus)
        #expect(try entry([(.notFIDOCertified, nil), (.selfAssertionSubmitted, nil)]).certification(at: Date()) == nil)
    }

    @Test("a NOT_FIDO_CERTIFIED report withdraws the levels reported before it, from its effective date on")
    func certificationWithdrawn() throws {
        let withdrawn = try entry([
            (.fidoCertifiedL2, "2019-01-01"), (.notFIDOCertified, "2021-01-01"), (.updateAvailable, "2022-01-01"),
        ])
        #expect(withdrawn.certification(at: try day("2020-06-01")) == .l2)
        #expect(withdrawn.certification(at: try day("2021-01-01")) == nil)
        #expect(withdrawn.certification(at: try day("2023-01-01")) == nil)
        // Certified again after the withdrawal: only the later level counts.
        let recertified = try entry([
            (.fidoCertifiedL3, "2018-01-01"), (.notFIDOCertified, "2020-01-01"), (.fidoCertifiedL1, "2022-01-01"),
        ])
        #expect(recertified.certification(at: try day("2021-01-01")) == nil)
        #expect(recertified.certification(at: try day("2022-01-02")) == .l1)
    }

    @Test("MDS dates are YYYY-MM-DD UTC days; other shapes are malformed")
    func dates() throws {
        #expect(try day("1970-01-01") == Date(timeIntervalSince1970: 0))
        #expect(try day("2024-02-29") == Date(timeIntervalSince1970: 1_709_164_800))
        #expect(MetadataDay.format(Date(timeIntervalSince1970: 1_709_164_800 + 86_399)) == "2024-02-29")
        #expect(MetadataDay.format(try day("2000-03-01")) == "2000-03-01")
        for bad in [
            "2023-02-29", "2024-13-01", "2024-00-10", "2024-01-00", "2024-04-31", "24-01-01", "2024/01/01",
            "2024-01-01T00:00:00Z", " 2024-01-01", "2024-1-01", "+024-01-01", "２０２４-01-01", "",
        ] {
            #expect(throws: MetadataError(.malformed, "")) { try day(bad) }
        }
    }

    @Test("an entry's JSON: aaguid, key identifiers lower-cased, reports, raw kept; a bad statement is skipped")
    func parsing() throws {
        let json = try JSONValue(
            parsing: Array(
                #"""
                {"attestationCertificateKeyIdentifiers":["ABCDEF0123"],"statusReports":[{"status":"FIDO_CERTIFIED",
                "effectiveDate":"2020-01-01","certificateNumber":"U2F1","url":"https://example.com","certificationDescriptor":"d"}],
                "timeOfLastStatusChange":"2020-01-01","metadataStatement":{"description":"Bad roots",
                "attestationRootCertificates":["bm90IGEgY2VydA=="]}}
                """#.utf8))
        let (entry, statementError) = try MetadataEntry.parse(json, index: 3)
        #expect(entry.aaguid == nil)
        #expect(entry.attestationCertificateKeyIdentifiers == ["abcdef0123"])
        #expect(entry.statusReports.first?.certificateNumber == "U2F1")
        #expect(entry.statusReports.first?.url == "https://example.com")
        #expect(entry.statement == nil)
        #expect(statementError?.reason.contains("attestationRootCertificates[0]") == true)
        #expect(entry.raw == json)
        #expect(MetadataEntry.aaguid(text: "0132D110-bf4e-4208-a403-ab4f5f12efe5")?.count == 16)
        #expect(MetadataEntry.aaguid(text: "0132d110bf4e4208a403ab4f5f12efe5") == nil)
        #expect(MetadataEntry.aaguid(text: "0132d110-bf4e-4208-a403-ab4f5f12efeg") == nil)
    }
}
