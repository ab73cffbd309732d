import Crypto
import Foundation
import Metadata
import WebAuthn

/// One verified FIDO MDS3 BLOB as a server uses it: the BLOB, its lookups (built once, here), when it was verified
/// and stored, and where it came from. Immutable and shared: `MetadataRegistry.current()` hands the same instance to
/// every request until a newer BLOB replaces it, so whatever is derived from a BLOB is derived here, once.
package final class MetadataSnapshot: Sendable {
    /// The verified BLOB.
    package let blob: MetadataBLOB
    /// Its entries by AAGUID and by attestation-certificate key identifier.
    package let catalog: MetadataCatalog
    /// The attestation trust anchors its statements give (WebAuthn L3 §7.1 step 23): each statement's
    /// `attestationRootCertificates` by AAGUID (never the all-zero one) and by U2F key identifier; no `extra` roots
    /// (the operator's are added per registration).
    package let anchors: AttestationTrustAnchors
    /// When it was verified and stored (`metadata_blobs.loaded_at`).
    package let loadedAt: Date
    /// `file:<path>` or `cli` (`metadata_blobs.source`).
    package let source: String

    /// A snapshot of `blob`, indexing it.
    package init(blob: MetadataBLOB, loadedAt: Date, source: String) {
        self.blob = blob
        self.catalog = MetadataCatalog(blob: blob)
        self.anchors = Self.anchors(of: blob)
        self.loadedAt = loadedAt
        self.source = source
    }

    /// Whether the BLOB is out of date at `now` (`MetadataBLOB.isStale`). A stale BLOB is still used, with a warning.
    package func isStale(at now: Date) -> Bool {
        MetadataBLOB.isStale(nextUpdate: blob.nextUpdate, at: now)
    }

    /// The statements' roots of `blob`, by AAGUID and by key identifier.
    static func anchors(of blob: MetadataBLOB) -> AttestationTrustAnchors {
        var byAAGUID: [[UInt8]: [Certificate]] = [:]
        var byKeyIdentifier: [String: [Certificate]] = [:]
        for entry in blob.entries {
            guard let roots = entry.statement?.attestationRootCertificates, !roots.isEmpty else { continue }
            if let aaguid = entry.aaguid, AuthenticatorModelKey.isDisclosed(aaguid) {
                byAAGUID[aaguid, default: []] += roots
            }
            for identifier in entry.attestationCertificateKeyIdentifiers {
                byKeyIdentifier[identifier.lowercased(), default: []] += roots
            }
        }
        return AttestationTrustAnchors(byAAGUID: byAAGUID, byKeyIdentifier: byKeyIdentifier)
    }
}
