import Crypto
import Foundation
import JSON
import Metadata
import Storage

/// Storing a verified BLOB, the one way the server (`metadata.blob_file`) and `passkeyd metadata load` both do it:
/// `StoreWriter.storeMetadataBLOB` decides inside the write whether it is newer than the stored one, and a BLOB it
/// stores is recorded in the same write by a `metadata_loaded` security event (docs/audit.md).
package enum MetadataBLOBStorage {
    /// The record of `blob`, verified and stored at `now` from `source`.
    package static func record(_ blob: MetadataBLOB, source: String, now: Date) -> MetadataBLOBRecord {
        MetadataBLOBRecord(
            serial: blob.serial, jws: blob.jws, sha256: blob.sha256, nextUpdate: blob.nextUpdate, loadedAt: now,
            source: source)
    }

    /// Stores `blob` unless the stored one is as new or newer; returns what the store did.
    /// - Throws: `StorageError`.
    package static func store(_ blob: MetadataBLOB, source: String, now: Date, in store: any Store) async throws
        -> MetadataBLOBStoreOutcome
    {
        let record = record(blob, source: source, now: now)
        let event = auditEvent(blob, source: source, now: now)
        return try await store.write { writer in
            let outcome = try writer.storeMetadataBLOB(record)
            if outcome == .stored { _ = try writer.appendSecurityEvent(event) }
            return outcome
        }
    }

    /// `metadata_loaded`: the serial, the number of entries, the source and the SHA-256 of the JWS (hex).
    package static func auditEvent(_ blob: MetadataBLOB, source: String, now: Date) -> SecurityEvent {
        let detail: JSONValue = .object([
            JSONMember(key: "serial", value: JSONValue(Int(blob.serial))),
            JSONMember(key: "entries", value: JSONValue(blob.entries.count)),
            JSONMember(key: "source", value: .string(source)),
            JSONMember(key: "sha256", value: .string(Hex.encode(blob.sha256))),
        ])
        return SecurityEvent(
            occurredAt: now, kind: .metadataLoaded, outcome: "success", detail: detail.serialized())
    }

    /// One line saying why a stored BLOB was not replaced, nil when it was.
    package static func refusal(_ outcome: MetadataBLOBStoreOutcome, serial: Int64) -> String? {
        switch outcome {
        case .stored, .unchanged: nil
        case .older(let current):
            "its serial \(serial) is older than the stored BLOB's \(current) (a BLOB's serial never goes back)"
        case .conflict:
            "a different BLOB with the same serial \(serial) is stored already (one of the two is not genuine)"
        }
    }
}
