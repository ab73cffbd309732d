import Foundation
import JSON

extension MetadataEntry {
    /// Parses one `MetadataBLOBPayloadEntry` (FIDO MDS3 §3.1.1). The identifiers and status reports must parse (an
    /// entry whose status cannot be read cannot be judged); a statement that does not parse leaves the entry
    /// without one and comes back as the second value.
    /// - Throws: `.malformed` naming `entries[index]` and the member.
    static func parse(_ json: JSONValue, index: Int) throws(MetadataError) -> (MetadataEntry, MetadataError?) {
        do throws(MetadataError) {
            let object = try MetadataJSON.object(json, "entry")
            let aaguid = try MetadataJSON.optionalString(object, "aaguid").map { text throws(MetadataError) in
                guard let bytes = Self.aaguid(text: text) else {
                    throw MetadataError(.malformed, "aaguid \"\(text.prefix(40))\" is not a UUID")
                }
                return bytes
            }
            let identifiers = try (MetadataJSON.optionalStrings(object, "attestationCertificateKeyIdentifiers") ?? [])
                .map { text throws(MetadataError) in
                    guard !text.isEmpty, text.count % 2 == 0, text.utf8.allSatisfy(Self.isASCIIHexDigit) else {
                        throw MetadataError(.malformed, "attestationCertificateKeyIdentifiers has non-hex \"\(text)\"")
                    }
                    return text.lowercased()
                }
            guard let reportsJSON = try MetadataJSON.optionalArray(object, "statusReports") else {
                throw MetadataError(.malformed, "statusReports is missing")
            }
            var reports: [StatusReport] = []
            reports.reserveCapacity(reportsJSON.count)
            for (position, report) in reportsJSON.enumerated() {
                do throws(MetadataError) {
                    reports.append(try statusReport(report))
                } catch {
                    throw MetadataError(.malformed, "statusReports[\(position)]: \(error.reason)")
                }
            }
            let lastChange = try MetadataJSON.optionalString(object, "timeOfLastStatusChange").map {
                text throws(MetadataError) in try MetadataDay.parse(text, field: "timeOfLastStatusChange")
            }
            var statement: MetadataStatement?
            var statementError: MetadataError?
            if let statementJSON = object["metadataStatement"], !statementJSON.isNull {
                do throws(MetadataError) {
                    let parsed = try MetadataStatement(json: statementJSON)
                    // The statement describes the entry's authenticator: an AAGUID that differs is a contradiction.
                    let stated = try MetadataJSON.optionalString(
                        MetadataJSON.object(statementJSON, "metadataStatement"), "aaguid")
                    if let stated, let aaguid, Self.aaguid(text: stated) != aaguid {
                        throw MetadataError(.malformed, "metadataStatement.aaguid \(stated) differs from the entry's")
                    }
                    statement = parsed
                } catch {
                    statementError = error
                }
            }
            let entry = MetadataEntry(
                aaguid: aaguid, aaid: try MetadataJSON.optionalString(object, "aaid"),
                attestationCertificateKeyIdentifiers: identifiers, statement: statement, statusReports: reports,
                timeOfLastStatusChange: lastChange, raw: json)
            return (entry, statementError)
        } catch {
            throw MetadataError(.malformed, "entries[\(index)]: \(error.reason)")
        }
    }

    /// One `StatusReport` (FIDO MDS3 §3.1.3).
    private static func statusReport(_ json: JSONValue) throws(MetadataError) -> StatusReport {
        let object = try MetadataJSON.object(json, "status report")
        let status = try MetadataJSON.string(object, "status")
        let effective = try MetadataJSON.optionalString(object, "effectiveDate").map { text throws(MetadataError) in
            try MetadataDay.parse(text, field: "effectiveDate")
        }
        return StatusReport(
            status: AuthenticatorStatus(rawValue: status), effectiveDate: effective,
            certificationDescriptor: try MetadataJSON.optionalString(object, "certificationDescriptor"),
            certificateNumber: try MetadataJSON.optionalString(object, "certificateNumber"),
            url: try MetadataJSON.optionalString(object, "url"))
    }

    /// Whether `byte` is an ASCII hex digit of either case.
    private static func isASCIIHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    /// The 16 bytes of an AAGUID written as a UUID (RFC 9562 §4: 8-4-4-4-12 hex digits, either case), nil for any
    /// other text.
    package static func aaguid(text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count == 36 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        var high: UInt8?
        for (offset, character) in utf8.enumerated() {
            if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
                guard character == UInt8(ascii: "-") else { return nil }
                continue
            }
            let nibble: UInt8
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = character - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = character - UInt8(ascii: "A") + 10
            default: return nil
            }
            if let first = high {
                bytes.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return bytes.count == 16 ? bytes : nil
    }
}
