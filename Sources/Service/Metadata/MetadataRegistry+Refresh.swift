import Crypto
import Foundation
import Metadata
import Storage

/// The steps of `MetadataRegistry.refresh()`.
extension MetadataRegistry {
    /// (a) `metadata.blob_file`: read again when its size or time changed, verified and stored when its content did.
    func refreshFile(_ path: String, now: Date) async {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let inode = (attributes?[.systemFileNumber] as? NSNumber)?.uint64Value
        let size = (attributes?[.size] as? NSNumber)?.uint64Value
        let modified = attributes?[.modificationDate] as? Date
        let previous = state.withLock { $0.file }
        if let previous, previous.sha256 != nil, !previous.racy, previous.inode == inode, previous.size == size,
            previous.modified == modified
        {
            return
        }
        // File times are wall-clock times: compared with the system's, not the server's (test) clock.
        let racy = modified.map { Date().timeIntervalSince($0) < 2 } ?? true
        guard let data = FileManager.default.contents(atPath: path) else {
            let seen = FileSeen(inode: nil, size: nil, modified: nil, sha256: nil)
            guard previous != seen else { return }
            state.withLock { $0.file = seen }
            refused(path, "cannot be read")
            return
        }
        let bytes = [UInt8](data)
        let sha256 = Digest.sha256(bytes)
        state.withLock {
            $0.file = FileSeen(inode: inode, size: size, modified: modified, sha256: sha256, racy: racy)
        }
        if previous?.sha256 == sha256 { return }
        let blob: MetadataBLOB
        do {
            blob = try verifier.verify(String(decoding: bytes, as: UTF8.self), at: now)
        } catch {
            refused(path, "does not verify (\(error.code)): \(error.reason)")
            return
        }
        let source = "file:\(path)"
        let outcome: MetadataBLOBStoreOutcome
        do {
            outcome = try await MetadataBLOBStorage.store(blob, source: source, now: now, in: store)
        } catch {
            // Not refused: read it again at the next refresh.
            state.withLock { $0.file = nil }
            logger.log(.error, "metadata BLOB file verified but not stored; retried at the next refresh") { line in
                line.add("file", path)
                line.add("error", String(describing: error))
            }
            return
        }
        if let reason = MetadataBLOBStorage.refusal(outcome, serial: blob.serial) {
            refused(path, reason)
            return
        }
        if outcome == .stored {
            logger.log(.info, "metadata BLOB stored") { line in
                line.add("file", path)
                line.add("serial", Int(blob.serial))
                line.add("sha256", Hex.encode(blob.sha256))
            }
            swap(MetadataSnapshot(blob: blob, loadedAt: now, source: source))
        }
    }

    /// The `error` line of a BLOB file refused: what, which file, why, and which BLOB stays in use.
    private func refused(_ path: String, _ reason: String) {
        let kept = current()
        logger.log(.error, "metadata BLOB file refused; the last good BLOB is kept") { line in
            line.add("file", path)
            line.add("reason", reason)
            line.add("kept_serial", kept.map { String($0.blob.serial) } ?? "none")
        }
    }

    /// (b) The store: a BLOB newer than the one in use (stored by another node or the command line) is verified
    /// again, at the time it was stored, and used.
    func refreshFromStore() async {
        let record: MetadataBLOBRecord
        do {
            guard let serial = try await store.read({ try $0.latestMetadataSerial() }) else { return }
            if let current = current(), current.blob.serial >= serial { return }
            guard let found = try await store.read({ try $0.latestMetadataBLOB() }) else { return }
            record = found
        } catch {
            logger.log(.warning, "metadata refresh could not read the store") {
                $0.add("error", String(describing: error))
            }
            return
        }
        let alreadyRefused = state.withLock { state in
            state.refusedStored.map { $0.serial == record.serial && $0.sha256 == record.sha256 } ?? false
        }
        if alreadyRefused { return }
        do throws(MetadataError) {
            swap(try StoredMetadataBLOB.verify(record, with: verifier))
        } catch {
            state.withLock { $0.refusedStored = (record.serial, record.sha256) }
            logger.log(.error, "the stored metadata BLOB does not verify on this node; the last good BLOB is kept") {
                line in
                line.add("serial", Int(record.serial))
                line.add("source", record.source)
                line.add("reason", "\(error.code): \(error.reason)")
                line.add("kept_serial", current().map { String($0.blob.serial) } ?? "none")
            }
        }
    }

    /// A `warning` when the BLOB in use is past its `nextUpdate`, at most once per refresh interval.
    func warnIfStale(now: Date) {
        guard let snapshot = current(), snapshot.isStale(at: now) else { return }
        let interval = Double(settings.refreshIntervalSeconds)
        let due = state.withLock { state -> Bool in
            if let last = state.staleWarnedAt, now < last.addingTimeInterval(interval), now >= last { return false }
            state.staleWarnedAt = now
            return true
        }
        guard due else { return }
        logger.log(.warning, "the metadata BLOB in use is stale: load a newer one (it stays in use meanwhile)") {
            line in
            line.add("serial", Int(snapshot.blob.serial))
            line.add("next_update", MetadataDay.format(snapshot.blob.nextUpdate))
            line.add("source", snapshot.source)
        }
    }

    /// The registry's gauges in the Prometheus text format: whether a BLOB is loaded, its serial, entries, next
    /// update (Unix seconds) and whether it is stale at `now`.
    package func metricsText(now: Date) -> String {
        var out = "# HELP passkeyd_metadata_blob_loaded Whether a FIDO MDS3 BLOB is in use.\n"
        out += "# TYPE passkeyd_metadata_blob_loaded gauge\n"
        guard let snapshot = current() else { return out + "passkeyd_metadata_blob_loaded 0\n" }
        out += "passkeyd_metadata_blob_loaded 1\n"
        out += "# HELP passkeyd_metadata_blob_serial The serial (no) of the BLOB in use.\n"
        out += "# TYPE passkeyd_metadata_blob_serial gauge\n"
        out += "passkeyd_metadata_blob_serial \(snapshot.blob.serial)\n"
        out += "# HELP passkeyd_metadata_blob_entries The entries of the BLOB in use.\n"
        out += "# TYPE passkeyd_metadata_blob_entries gauge\n"
        out += "passkeyd_metadata_blob_entries \(snapshot.catalog.count)\n"
        out += "# HELP passkeyd_metadata_blob_next_update_seconds The BLOB's nextUpdate, Unix seconds.\n"
        out += "# TYPE passkeyd_metadata_blob_next_update_seconds gauge\n"
        out += "passkeyd_metadata_blob_next_update_seconds \(Int(snapshot.blob.nextUpdate.timeIntervalSince1970))\n"
        out += "# HELP passkeyd_metadata_blob_stale Whether the BLOB in use is past its nextUpdate.\n"
        out += "# TYPE passkeyd_metadata_blob_stale gauge\n"
        out += "passkeyd_metadata_blob_stale \(snapshot.isStale(at: now) ? 1 : 0)\n"
        return out
    }
}
