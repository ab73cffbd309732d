import Crypto
import Foundation

/// The lookups over one verified BLOB, indexes built once at init: by AAGUID (FIDO2) and by attestation
/// certificate key identifier (U2F). Immutable, so a snapshot can be shared by every request.
package struct MetadataCatalog: Sendable {
    /// The BLOB the catalog indexes.
    package let blob: MetadataBLOB
    private let byAAGUID: [[UInt8]: Int]
    private let byKeyIdentifier: [String: Int]
    /// Identifiers named by more than one entry (AAGUIDs as UUID text, key identifiers as hex): the first entry
    /// wins the lookup; listed for the log.
    package let duplicateIdentifiers: [String]

    /// Indexes `blob`.
    package init(blob: MetadataBLOB) {
        var byAAGUID: [[UInt8]: Int] = [:]
        var byKeyIdentifier: [String: Int] = [:]
        var duplicates: [String] = []
        byAAGUID.reserveCapacity(blob.entries.count)
        for (index, entry) in blob.entries.enumerated() {
            if let aaguid = entry.aaguid {
                if byAAGUID[aaguid] == nil {
                    byAAGUID[aaguid] = index
                } else {
                    duplicates.append(UUIDText.format(aaguid))
                }
            }
            for identifier in entry.attestationCertificateKeyIdentifiers {
                if byKeyIdentifier[identifier] == nil {
                    byKeyIdentifier[identifier] = index
                } else {
                    duplicates.append(identifier)
                }
            }
        }
        self.blob = blob
        self.byAAGUID = byAAGUID
        self.byKeyIdentifier = byKeyIdentifier
        self.duplicateIdentifiers = duplicates
    }

    /// The BLOB's serial (`no`).
    package var serial: Int64 { blob.serial }
    /// The BLOB's `nextUpdate`.
    package var nextUpdate: Date { blob.nextUpdate }
    /// The number of entries.
    package var count: Int { blob.entries.count }

    /// The entry for a FIDO2 authenticator's AAGUID (16 bytes).
    package func entry(aaguid: [UInt8]) -> MetadataEntry? {
        byAAGUID[aaguid].map { blob.entries[$0] }
    }

    /// The entry for a U2F attestation certificate's key identifier (hex, either case).
    package func entry(keyIdentifier: String) -> MetadataEntry? {
        byKeyIdentifier[keyIdentifier.lowercased()].map { blob.entries[$0] }
    }

}
