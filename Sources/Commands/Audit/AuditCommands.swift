import Audit
import Crypto
import Foundation
import Service
import Storage

/// `passkeyd audit export` and `passkeyd audit verify` (docs/audit.md).
///
/// An export directory holds `entries` (one leaf per line, exactly its bytes), `leaf-hashes` (the hashes the server
/// stored, hex, one per line: used only to name a changed entry once they reproduce the signed root),
/// `checkpoint` (the latest signed note) and `key` (the verifier key).
public enum AuditCommands {
    /// Why an export failed.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Exports the log of the configured database into `directory` (created if missing). Like `keys rotate`, it
    /// runs beside a running server without taking the data directory's lock. Returns a one-line summary.
    public static func export(configuration: ServerConfiguration, to directory: String) async throws -> String {
        try await DatabaseDrivers.withStore(configuration) { store in
            try await export(store: store, configuration: configuration, to: directory)
        }
    }

    package static func export(store: any Store, configuration: ServerConfiguration, to directory: String) async throws
        -> String
    {
        // What was queued before the export is sequenced first, so the export holds every acknowledged event.
        _ = try await AuditSequencer.drain(store: store, addresses: configuration.audit.clientAddress)
        let (size, checkpoint) = try await store.read { (try $0.auditTree().size, try $0.latestAuditCheckpoint()) }
        var entries: [UInt8] = []
        var hashes = ""
        var start: Int64 = 0
        while start < size {
            let end = min(size, start + AuditLogReader.maxEntriesPerCall)
            let leaves = try await store.read { [start] in try $0.auditLeaves(start: start, end: end) }
            for leaf in leaves {
                entries += leaf.entry
                entries.append(0x0A)
                hashes += Hex.encode(leaf.leafHash) + "\n"
            }
            start = end
        }
        let manager = FileManager.default
        try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let url = URL(fileURLWithPath: directory)
        try Data(entries).write(to: url.appendingPathComponent("entries"))
        try Data(hashes.utf8).write(to: url.appendingPathComponent("leaf-hashes"))
        if let checkpoint {
            try Data(checkpoint.note.utf8).write(to: url.appendingPathComponent("checkpoint"))
        }
        if let signer = try AuditSignerLoader.load(
            configuration.audit, environment: ProcessInfo.processInfo.environment)
        {
            try Data((signer.verifierKey.description + "\n").utf8).write(to: url.appendingPathComponent("key"))
        }
        let signed = checkpoint.map { "checkpoint of \($0.treeSize)" } ?? "no checkpoint yet"
        return "exported \(size) entries (\(signed)) to \(directory)"
    }

    /// Verifies the export in `directory` with `key` (text or a file; default `directory/key`) and, if given, the
    /// earlier checkpoint file `previous`. Returns the exit status and the message to print.
    public static func verify(directory: String, key: String?, previous: String?) -> (Int32, String) {
        let url = URL(fileURLWithPath: directory)
        func read(_ path: URL) -> String? {
            (try? Data(contentsOf: path)).map { String(decoding: $0, as: UTF8.self) }
        }
        let keyText: String?
        if let key {
            keyText = FileManager.default.fileExists(atPath: key) ? read(URL(fileURLWithPath: key)) : key
        } else {
            keyText = read(url.appendingPathComponent("key"))
        }
        guard let keyText else { return (1, "FAIL: no verifier key (give --key, or export with a signer)") }
        let verifierKey: NoteVerifierKey
        do {
            verifierKey = try NoteVerifierKey(parsing: keyText)
        } catch {
            return (1, "FAIL: the verifier key: \(error.reason)")
        }
        guard let entriesData = try? Data(contentsOf: url.appendingPathComponent("entries")) else {
            return (1, "FAIL: \(directory)/entries cannot be read")
        }
        guard let checkpoint = read(url.appendingPathComponent("checkpoint")) else {
            return (1, "FAIL: \(directory)/checkpoint cannot be read")
        }
        var previousText: String?
        if let previous {
            guard let text = read(URL(fileURLWithPath: previous)) else {
                return (1, "FAIL: the previous checkpoint \(previous) cannot be read")
            }
            previousText = text
        }
        var lines = Array(entriesData).split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        if lines.last == [] { lines.removeLast() }
        let recorded = read(url.appendingPathComponent("leaf-hashes")).map { text in
            text.split(separator: "\n").map { line in
                stride(from: 0, to: line.count - 1, by: 2).compactMap { offset -> UInt8? in
                    let start = line.index(line.startIndex, offsetBy: offset)
                    return UInt8(line[start...line.index(after: start)], radix: 16)
                }
            }
        }
        do {
            let report = try LogVerifier(key: verifierKey).verify(
                entries: lines, checkpoint: checkpoint, previous: previousText, recordedLeafHashes: recorded)
            var message = "OK: \(report.treeSize) entries match the checkpoint signed by \(verifierKey.name)"
            if let size = report.previousSize { message += "; consistent with the previous checkpoint of \(size)" }
            if report.unsignedEntries > 0 { message += "; \(report.unsignedEntries) later entries not yet signed" }
            if key == nil { message += " (key taken from the export itself: pass --key to check against yours)" }
            return (0, message)
        } catch {
            return (1, "FAIL: \(error)")
        }
    }
}
