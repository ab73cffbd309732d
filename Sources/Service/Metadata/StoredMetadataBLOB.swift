import Configuration
import Foundation
import Metadata
import Storage

/// The stored metadata BLOB as the command line sees it, beside a running server: the row, and the BLOB verified
/// again with this configuration's roots and CRLs at the time it was stored (as a server does), or why it does not.
package struct StoredMetadataBLOB: Sendable {
    /// The stored row.
    package let record: MetadataBLOBRecord
    /// The verified snapshot, or the verification's error.
    package let verified: Result<MetadataSnapshot, MetadataError>

    /// The stored BLOB of `store`, verified with `settings`; nil when none is stored.
    /// - Throws: `StorageError`.
    package static func read(from store: any Store, settings: MetadataSettings) async throws -> Self? {
        guard let record = try await store.read({ try $0.latestMetadataBLOB() }) else { return nil }
        let verifier = MetadataBLOBVerifier(roots: settings.roots, crls: settings.crls)
        do throws(MetadataError) {
            let blob = try verifier.verify(record.jws, at: record.loadedAt)
            return Self(
                record: record,
                verified: .success(MetadataSnapshot(blob: blob, loadedAt: record.loadedAt, source: record.source)))
        } catch {
            return Self(record: record, verified: .failure(error))
        }
    }

    /// The snapshot when the BLOB verifies, else nil.
    package var snapshot: MetadataSnapshot? { try? verified.get() }
}
