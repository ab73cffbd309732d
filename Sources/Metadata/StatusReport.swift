import Foundation

/// One status report of an MDS3 entry (FIDO Metadata Service v3.0 §3.1.3, `StatusReport`), the fields passkeyd
/// reads.
package struct StatusReport: Sendable, Hashable {
    /// The status.
    package let status: AuthenticatorStatus
    /// The UTC day the status took effect (`YYYY-MM-DD`, as midnight UTC), nil when absent.
    package let effectiveDate: Date?
    /// The certification descriptor, for certification statuses.
    package let certificationDescriptor: String?
    /// The certificate number, for certification statuses.
    package let certificateNumber: String?
    /// A URL with more information about the status.
    package let url: String?

    /// A report with these fields.
    package init(
        status: AuthenticatorStatus, effectiveDate: Date?, certificationDescriptor: String? = nil,
        certificateNumber: String? = nil, url: String? = nil
    ) {
        self.status = status
        self.effectiveDate = effectiveDate
        self.certificationDescriptor = certificationDescriptor
        self.certificateNumber = certificateNumber
        self.url = url
    }

    /// Whether the report is in effect at `now`: no effective date, or one on or before `now`.
    package func isEffective(at now: Date) -> Bool {
        effectiveDate.map { $0 <= now } ?? true
    }
}
