import Crypto
import Foundation
import JSON

/// A verified FIDO MDS3 metadata BLOB (FIDO Metadata Service v3.0 §3.1.6, `MetadataBLOBPayload`): made only by
/// `MetadataBLOBVerifier.verify`, so holding one means its signature, chain and freshness were checked.
package struct MetadataBLOB: Sendable {
    /// The serial number `no`: a later BLOB has a higher one.
    package let serial: Int64
    /// `nextUpdate`: midnight UTC of the day by which a newer BLOB is due.
    package let nextUpdate: Date
    /// `legalHeader`, the FIDO Alliance's terms of use.
    package let legalHeader: String
    /// The entries in BLOB order.
    package let entries: [MetadataEntry]
    /// The compact JWS text as given, without surrounding whitespace (a file's final newline).
    package let jws: String
    /// SHA-256 of `jws`'s UTF-8.
    package let sha256: [UInt8]
    /// How many entries were kept without their statement because it did not parse.
    package var skippedStatements: Int { skippedStatementReasons.count }
    /// Why each skipped statement did not parse, naming its entry (for the log).
    package let skippedStatementReasons: [String]

    /// Whether a BLOB whose `nextUpdate` is `nextUpdate` (midnight UTC of a day) is out of date at `now` (FIDO MDS3
    /// §3.2: a newer BLOB is then due): once that whole UTC day has passed. The one home of the rule: the verifier
    /// refuses to load a stale BLOB, a server keeps using (and warns about) one that became stale in use.
    package static func isStale(nextUpdate: Date, at now: Date) -> Bool {
        nextUpdate < MetadataDay.startOfDay(now)
    }

    /// Reads the payload of a JWS whose signature and chain were verified.
    /// - Throws: `.malformed` naming the member or entry.
    init(payload: JSONValue, jws: String) throws(MetadataError) {
        let object = try MetadataJSON.object(payload, "payload")
        self.legalHeader = try MetadataJSON.string(object, "legalHeader")
        guard let number = object["no"], case .number(let text) = number, let serial = Int64(text), serial >= 0 else {
            throw MetadataError(.malformed, "no is missing or not a non-negative integer")
        }
        self.serial = serial
        self.nextUpdate = try MetadataDay.parse(MetadataJSON.string(object, "nextUpdate"), field: "nextUpdate")
        guard let entries = try MetadataJSON.optionalArray(object, "entries") else {
            throw MetadataError(.malformed, "entries is missing")
        }
        var parsed: [MetadataEntry] = []
        parsed.reserveCapacity(entries.count)
        var skipped: [String] = []
        for (index, json) in entries.enumerated() {
            let (entry, statementError) = try MetadataEntry.parse(json, index: index)
            parsed.append(entry)
            if let statementError { skipped.append("entries[\(index)]: \(statementError.reason)") }
        }
        self.entries = parsed
        self.skippedStatementReasons = skipped
        self.jws = jws
        self.sha256 = Digest.sha256(Array(jws.utf8))
    }
}
