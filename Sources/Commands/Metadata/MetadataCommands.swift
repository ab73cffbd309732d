import Configuration
import Crypto
import Foundation
import JSON
import Metadata
import Service
import Storage

/// What `passkeyd metadata load|show|status` do, on the configured store beside a running server (which picks up a
/// loaded BLOB at its next refresh): a BLOB is verified here with the configured roots and CRLs, exactly as a server
/// verifies it, and stored through `MetadataBLOBStorage` (its serial never going back, a `metadata_loaded` event).
package enum MetadataCommands {
    /// `metadata load FILE`: verifies the BLOB at `now` and stores it; the line printed on success.
    /// - Throws: `CommandFailure` with one line: why the BLOB was refused, and that the stored one is kept.
    package static func load(file: String, configuration: ServerConfiguration, now: Date) async throws(CommandFailure)
        -> String
    {
        do {
            return try await DatabaseDrivers.withStore(configuration) { store in
                try await load(file: file, settings: configuration.metadata, store: store, now: now)
            }
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure("metadata load: \(oneLine(String(describing: error)))")
        }
    }

    /// `load(file:configuration:now:)` on an open store.
    static func load(file: String, settings: MetadataSettings, store: any Store, now: Date) async throws -> String {
        let kept = try await store.read { try $0.latestMetadataSerial() }
        func refused(_ reason: String) -> CommandFailure {
            let keptText = kept.map { "the stored BLOB (serial \($0)) is kept" } ?? "no BLOB is stored"
            return CommandFailure("metadata load: \(file) refused: \(oneLine(reason)); \(keptText)")
        }
        guard let data = FileManager.default.contents(atPath: file) else { throw refused("cannot read the file") }
        let blob: MetadataBLOB
        do {
            blob = try MetadataBLOBVerifier(roots: settings.roots, crls: settings.crls)
                .verify(String(decoding: data, as: UTF8.self), at: now)
        } catch {
            throw refused("\(error.code): \(error.reason)")
        }
        let outcome = try await MetadataBLOBStorage.store(blob, source: "cli", now: now, in: store)
        if let reason = MetadataBLOBStorage.refusal(outcome, serial: blob.serial) { throw refused(reason) }
        let what = outcome == .stored ? "stored" : "already stored"
        return "\(what): metadata BLOB serial \(blob.serial), \(blob.entries.count) entries, next update "
            + MetadataDay.format(blob.nextUpdate)
            + (blob.skippedStatements > 0 ? " (\(blob.skippedStatements) statements did not parse)" : "")
    }

    /// `metadata status`: the stored BLOB's serial, next update, load time, source, entries and staleness at `now`.
    package static func status(store: any Store, settings: MetadataSettings, now: Date, json: Bool) async throws
        -> AdminCommands.Outcome
    {
        guard let stored = try await StoredMetadataBLOB.read(from: store, settings: settings) else {
            return AdminCommands.Outcome(
                status: 1,
                output: json
                    ? String(
                        decoding: JSONValue.object([JSONMember(key: "loaded", value: false)]).serialized(),
                        as: UTF8.self)
                    : "no metadata BLOB is stored (passkeyd metadata load FILE, or metadata.blob_file)")
        }
        let record = stored.record
        let stale = MetadataBLOB.isStale(nextUpdate: record.nextUpdate, at: now)
        var members = [
            JSONMember(key: "loaded", value: true),
            JSONMember(key: "serial", value: JSONValue(Int(record.serial))),
            JSONMember(key: "next_update", value: .string(MetadataDay.format(record.nextUpdate))),
            JSONMember(key: "loaded_at", value: RFC3339.timestamp(record.loadedAt)),
            JSONMember(key: "source", value: .string(record.source)),
            JSONMember(key: "sha256", value: .string(Hex.encode(record.sha256))),
            JSONMember(key: "stale", value: .bool(stale)),
        ]
        var lines = [
            "serial: \(record.serial)",
            "next update: \(MetadataDay.format(record.nextUpdate))"
                + (stale ? " (stale: load a newer BLOB)" : ""),
            "loaded at: \(RFC3339.timestamp(record.loadedAt).stringValue ?? "")", "source: \(record.source)",
        ]
        switch stored.verified {
        case .success(let snapshot):
            members.append(JSONMember(key: "entries", value: JSONValue(snapshot.catalog.count)))
            members.append(JSONMember(key: "verified", value: true))
            lines.append("entries: \(snapshot.catalog.count)")
        case .failure(let error):
            members.append(JSONMember(key: "verified", value: false))
            members.append(JSONMember(key: "error", value: .string("\(error.code): \(error.reason)")))
            lines.append("does not verify with this configuration: \(error.code): \(oneLine(error.reason))")
        }
        return AdminCommands.done(json: json, .object(members), text: lines)
    }

    /// The text on one line: a reason printed as the command's only line of failure.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
