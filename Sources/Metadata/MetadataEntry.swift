import Foundation
import JSON

/// One entry of an MDS3 BLOB (FIDO Metadata Service v3.0 §3.1.1, `MetadataBLOBPayloadEntry`): which authenticator
/// (AAGUID for FIDO2, AAID for UAF, attestation key identifiers for U2F), its statement and its status history,
/// with the decisions passkeyd takes from it at a time `now`, one home each.
package struct MetadataEntry: Sendable, Hashable {
    /// The FIDO2 AAGUID (16 bytes), nil for a U2F or UAF entry.
    package let aaguid: [UInt8]?
    /// The UAF AAID, nil otherwise.
    package let aaid: String?
    /// The U2F attestation certificates' key identifiers (`Certificate.publicKeyIdentifier`), lower-case hex.
    package let attestationCertificateKeyIdentifiers: [String]
    /// The metadata statement; nil when absent or when it did not parse (`MetadataBLOB.skippedStatements`).
    package let statement: MetadataStatement?
    /// The status reports in BLOB order.
    package let statusReports: [StatusReport]
    /// The UTC day of the last status change.
    package let timeOfLastStatusChange: Date?
    /// The entry's JSON as given (for `passkeyd metadata show --json`).
    package let raw: JSONValue

    /// An entry with these fields.
    package init(
        aaguid: [UInt8]?, aaid: String? = nil, attestationCertificateKeyIdentifiers: [String] = [],
        statement: MetadataStatement?, statusReports: [StatusReport], timeOfLastStatusChange: Date? = nil,
        raw: JSONValue = .null
    ) {
        self.aaguid = aaguid
        self.aaid = aaid
        self.attestationCertificateKeyIdentifiers = attestationCertificateKeyIdentifiers
        self.statement = statement
        self.statusReports = statusReports
        self.timeOfLastStatusChange = timeOfLastStatusChange
        self.raw = raw
    }

    /// The first report, by effective date, whose status means compromise and that is in effect at `now`. A later
    /// report (e.g. `UPDATE_AVAILABLE`) does not lift it: devices already in the field keep the flaw.
    package func compromise(at now: Date) -> StatusReport? {
        effectiveReports(at: now).first { $0.status.isCompromise }
    }

    /// The status of the report in effect at `now` with the latest effective date (ties: the later in the BLOB).
    package func latestStatus(at now: Date) -> AuthenticatorStatus? {
        effectiveReports(at: now).last?.status
    }

    /// The highest certification level among the reports in effect at `now` (`FIDO_CERTIFIED` counts as L1) since
    /// the last `NOT_FIDO_CERTIFIED` in effect, which withdraws every level reported before it (FIDO MDS3 §3.1.4: a
    /// status report states the authenticator's status from its effective date on); nil when none, or when the
    /// entry is compromised at `now`.
    package func certification(at now: Date) -> CertificationLevel? {
        guard compromise(at: now) == nil else { return nil }
        var level: CertificationLevel?
        for report in effectiveReports(at: now) {
            if report.status == .notFIDOCertified {
                level = nil
            } else if let reported = report.status.certificationLevel {
                level = max(level ?? reported, reported)
            }
        }
        return level
    }

    /// The reports in effect at `now`, ordered by effective date (a report without one counts as the earliest),
    /// keeping BLOB order among equal dates.
    private func effectiveReports(at now: Date) -> [StatusReport] {
        let effective = statusReports.enumerated().filter { $0.element.isEffective(at: now) }
        return effective.sorted { lhs, rhs in
            let left = lhs.element.effectiveDate ?? .distantPast
            let right = rhs.element.effectiveDate ?? .distantPast
            return left == right ? lhs.offset < rhs.offset : left < right
        }.map(\.element)
    }
}
