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
            return Self(record: record, verified: .success(try verify(record, with: verifier)))
        } catch {
            return Self(record: record, verified: .failure(error))
        }
    }

    /// The stored `record` verified again, never trusted as stored: signature and chain at the time it was stored
    /// (its time of use), and its row's serial and hash those of its JWS. The one way a server's refresh and the
    /// command line read a stored BLOB.
    /// - Throws: the verifier's `MetadataError`, or `.malformed` when the row and its JWS disagree.
    package static func verify(_ record: MetadataBLOBRecord, with verifier: MetadataBLOBVerifier) throws(MetadataError)
        -> MetadataSnapshot
    {
        let blob = try verifier.verify(record.jws, at: record.loadedAt)
        guard blob.serial == record.serial, blob.sha256 == record.sha256 else {
            throw MetadataError(
                .malformed, "the stored row says serial \(record.serial), its JWS serial \(blob.serial)")
        }
        return MetadataSnapshot(blob: blob, loadedAt: record.loadedAt, source: record.source)
    }

    /// The snapshot when the BLOB verifies, else nil.
    package var snapshot: MetadataSnapshot? { try? verified.get() }
}
