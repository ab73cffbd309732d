import Foundation
import Metadata

/// One verified FIDO MDS3 BLOB as a server uses it: the BLOB, its lookups (built once, here), when it was verified
/// and stored, and where it came from. Immutable and shared: `MetadataRegistry.current()` hands the same instance to
/// every request until a newer BLOB replaces it, so whatever is derived from a BLOB is derived here, once.
package final class MetadataSnapshot: Sendable {
    /// The verified BLOB.
    package let blob: MetadataBLOB
    /// Its entries by AAGUID and by attestation-certificate key identifier.
    package let catalog: MetadataCatalog
    /// When it was verified and stored (`metadata_blobs.loaded_at`).
    package let loadedAt: Date
    /// `file:<path>` or `cli` (`metadata_blobs.source`).
    package let source: String

    /// A snapshot of `blob`, indexing it.
    package init(blob: MetadataBLOB, loadedAt: Date, source: String) {
        self.blob = blob
        self.catalog = MetadataCatalog(blob: blob)
        self.loadedAt = loadedAt
        self.source = source
    }

    /// Whether the BLOB is out of date at `now`: past the whole UTC day its `nextUpdate` names (FIDO MDS3 §3.2: a
    /// relying party should then get a newer one). A stale BLOB is still used, with a warning.
    package func isStale(at now: Date) -> Bool {
        Self.isStale(nextUpdate: blob.nextUpdate, at: now)
    }

    /// Whether a BLOB whose `nextUpdate` is `nextUpdate` (the start of a UTC day) is out of date at `now`.
    package static func isStale(nextUpdate: Date, at now: Date) -> Bool {
        now >= nextUpdate.addingTimeInterval(86_400)
    }
}
