import Audit
import Storage

/// At start: whether the audit log's latest checkpoint is signed by this node's audit key. One log is verified with
/// one key (`passkeyd audit verify --key`), so nodes that sign with different keys (each `audit.signer: "file"`
/// node generating its own key in its own data directory, say) leave checkpoints that no one key verifies. A node
/// whose key did not sign the latest checkpoint says so at start, naming both keys; it still starts (a deliberate
/// change of the log's key looks the same from here).
package enum AuditKeyContinuity {
    /// The error line's text when the latest checkpoint is not signed by `signer`'s key; nil when it is, or when
    /// there is no checkpoint yet.
    package static func mismatch(latest: AuditCheckpointRecord?, signer: any NoteSigner) -> String? {
        guard let latest else { return nil }
        let key = signer.verifierKey
        let note = try? SignedNote(parsing: latest.note)
        if let note, (try? note.verify(with: key)) != nil { return nil }
        let signedBy = note?.signatures.map(\.keyText).joined(separator: ", ") ?? "an unreadable signature"
        return "the audit log's latest checkpoint (size \(latest.treeSize)) is not signed by this node's audit key "
            + "\(key.description) (it is signed by \(signedBy)): its checkpoints would be under two keys and "
            + "`passkeyd audit verify` with either one fails; every node must sign with the same key: the same "
            + "audit.key_file on every node, or the same HSM key (docs/deployment.md)"
    }

    /// Reads the latest checkpoint and logs `mismatch` as an error.
    package static func check(store: any Store, signer: (any NoteSigner)?, logger: Logger) async {
        guard let signer else { return }
        do {
            let latest = try await store.read { try $0.latestAuditCheckpoint() }
            if let message = mismatch(latest: latest, signer: signer) { logger.log(.error, message) }
        } catch {
            logger.log(.warning, "cannot read the latest audit checkpoint to check its key") {
                $0.add("error", "\(error)")
            }
        }
    }
}
