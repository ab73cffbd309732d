import Crypto
import Foundation
import JSON
import Metadata
import Service

/// `passkeyd metadata show AAGUID`.
extension MetadataCommands {
    /// The entry of `aaguid` in `snapshot` at `now`: description, AAGUID, latest status, certification, compromise,
    /// every status report, the attestation roots' subjects and whether there is an icon; `--json` prints the
    /// entry's raw JSON. Exit 1 when the BLOB has no entry for it.
    package static func show(aaguid: [UInt8], snapshot: MetadataSnapshot, now: Date, json: Bool)
        -> AdminCommands.Outcome
    {
        let text = UUIDText.format(aaguid)
        guard let entry = snapshot.catalog.entry(aaguid: aaguid) else {
            let value: JSONValue = ["error": "not_found", "what": "authenticator", "id": .string(text)]
            return AdminCommands.Outcome(
                status: 1,
                output: json
                    ? String(decoding: value.serialized(), as: UTF8.self)
                    : "no entry for AAGUID \(text) in metadata BLOB serial \(snapshot.blob.serial)")
        }
        if json {
            return AdminCommands.Outcome(status: 0, output: String(decoding: entry.raw.serialized(), as: UTF8.self))
        }
        var lines = [
            "description: \(entry.statement?.description ?? "(no statement)")",
            "aaguid: \(text)",
            "status: \(entry.latestStatus(at: now)?.rawValue ?? "none")",
            "certification: \(entry.certification(at: now)?.rawValue ?? "none")",
        ]
        if let compromise = entry.compromise(at: now) {
            lines.append(
                "COMPROMISED: \(compromise.status.rawValue)"
                    + (compromise.effectiveDate.map { " since \(MetadataDay.format($0))" } ?? ""))
        }
        for report in entry.statusReports {
            var line = "report: \(report.status.rawValue)"
            if let date = report.effectiveDate { line += " effective \(MetadataDay.format(date))" }
            if let number = report.certificateNumber { line += " certificate \(number)" }
            if let url = report.url { line += " \(url)" }
            lines.append(line)
        }
        for root in entry.statement?.attestationRootCertificates ?? [] {
            lines.append("attestation root: \(subject(root.subject))")
        }
        lines.append("icon: \(entry.statement?.icon == nil ? "no" : "yes")")
        return AdminCommands.Outcome(status: 0, output: lines.map(MetadataCommands.oneLine).joined(separator: "\n"))
    }

    /// `CN=…, O=…` of a certificate's subject, in its order.
    static func subject(_ name: DistinguishedName) -> String {
        let short = [
            DistinguishedName.AttributeOID.commonName: "CN", DistinguishedName.AttributeOID.countryName: "C",
            DistinguishedName.AttributeOID.organizationName: "O",
            DistinguishedName.AttributeOID.organizationalUnitName: "OU",
        ]
        return name.attributes.map { "\(short[$0.oid] ?? $0.oid)=\($0.value)" }.joined(separator: ", ")
    }
}
