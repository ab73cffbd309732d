import Foundation
import Storage

#if canImport(Glibc)
    import Glibc
#endif

/// A consistent copy of a live SQLite database (`passkeyd database backup`), taken beside a running server.
///
/// SQLite writes it (`VACUUM INTO`): one read transaction of the source, so one snapshot, and in WAL mode the
/// server's writer is never blocked. The copy goes into a new file of mode 0600 (it holds what the database holds:
/// sealed secrets, hashes, the audit log) beside the destination, is flushed, checked (`PRAGMA integrity_check`) and
/// only then renamed to the destination, so a destination that exists is always a whole, checked backup.
package enum SQLiteBackup {
    /// What a finished backup holds.
    package struct Summary: Sendable {
        /// The schema version of the copy.
        package let schemaVersion: Int
        /// Rows per table (bookkeeping included), by name.
        package let rows: [String: Int]
        /// The copy's size in bytes.
        package let bytes: Int
    }

    /// Copies the database at `source` to `destination`, which must not exist.
    /// - Throws: `.invalidConfiguration` when `destination` exists or its directory cannot take a new file,
    ///   `.corrupt` when the copy fails its integrity check, or what SQLite reports; no destination file then.
    package static func write(source: String, to destination: String) throws(StorageError) -> Summary {
        guard !FileManager.default.fileExists(atPath: destination) else {
            throw StorageError(.invalidConfiguration, "\(destination) exists: a backup never overwrites a file")
        }
        let partial = destination + ".partial"
        // A partial file is what an interrupted backup left: never a backup, so it goes.
        unlink(partial)
        // VACUUM INTO fills an empty file; created here so that it is 0600 from its first byte.
        let created = open(partial, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard created >= 0 else {
            throw StorageError(
                .invalidConfiguration, "cannot create \(partial): \(String(cString: strerror(errno)))")
        }
        close(created)
        do throws(StorageError) {
            do {
                let database = try SQLiteDatabase(path: source, readOnly: true, busyTimeoutMilliseconds: 5_000)
                try database.execute("VACUUM INTO ?", [.text(partial)])
            }
            try flush(partial)
            let summary = try check(partial)
            guard rename(partial, destination) == 0 else {
                throw StorageError(
                    .io, "cannot rename \(partial) to \(destination): \(String(cString: strerror(errno)))")
            }
            try flush((destination as NSString).deletingLastPathComponent)
            return summary
        } catch {
            unlink(partial)
            throw error
        }
    }

    /// The integrity check, schema version and row counts of the database at `path`.
    /// - Throws: `.corrupt` when it is not a database or fails the check, `.migration` when its schema is newer than
    ///   this binary's.
    package static func check(_ path: String) throws(StorageError) -> Summary {
        let database = try SQLiteDatabase(path: path, readOnly: true, busyTimeoutMilliseconds: 5_000)
        let verdict = try database.query("PRAGMA integrity_check") { (row) throws(StorageError) in try row.text(0) }
        guard verdict == ["ok"] else {
            throw StorageError(
                .corrupt, "the backup fails its integrity check: \(verdict.prefix(3).joined(separator: "; "))")
        }
        guard let version = try database.schemaVersion() else {
            throw StorageError(.corrupt, "\(path) is not a passkeyd database (no schema_migrations table)")
        }
        let known = SQLiteSchema.migrations.last?.version ?? 0
        guard version <= known else {
            throw StorageError(.migration, "\(path) is at schema version \(version), newer than this binary's \(known)")
        }
        let tables = try database.tableNames()
        var rows: [String: Int] = [:]
        for table in tables {
            rows[table] = Int(
                try database.query("SELECT count(*) FROM \(SQLIdentifier.quoted(table))") {
                    (row) throws(StorageError) in try row.integer(0)
                }.first ?? 0)
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        return Summary(schemaVersion: version, rows: rows, bytes: size)
    }

    /// Puts the backup `source` in place of the database `destination` (no server may have it open: the caller holds
    /// the data directory's lock). The backup is checked first; the database it replaces, with its `-wal` and `-shm`
    /// (a WAL left beside another database file would be replayed into it), is moved aside, never deleted, under
    /// `destination.before-restore-SUFFIX`; the copy goes in through a flushed temporary file and a rename.
    /// - Returns: the backup's summary and where the replaced database went (nil when there was none).
    package static func restore(backup source: String, in destination: String, asideSuffix: String)
        throws(StorageError) -> (summary: Summary, aside: String?)
    {
        let summary = try check(source)
        let partial = destination + ".restoring"
        unlink(partial)
        do {
            try FileManager.default.copyItem(atPath: source, toPath: partial)
        } catch {
            throw StorageError(.io, "cannot copy \(source) to \(partial): \(error)")
        }
        chmod(partial, 0o600)
        try flush(partial)
        var aside: String?
        if FileManager.default.fileExists(atPath: destination) {
            let moved = destination + ".before-restore-" + asideSuffix
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: destination + suffix) {
                guard rename(destination + suffix, moved + suffix) == 0 else {
                    let reason = String(cString: strerror(errno))
                    unlink(partial)
                    throw StorageError(.io, "cannot move \(destination + suffix) aside to \(moved + suffix): \(reason)")
                }
            }
            aside = moved
        }
        guard rename(partial, destination) == 0 else {
            throw StorageError(.io, "cannot rename \(partial) to \(destination): \(String(cString: strerror(errno)))")
        }
        try flush((destination as NSString).deletingLastPathComponent)
        return (summary, aside)
    }

    /// fsync(2) of a file or directory.
    private static func flush(_ path: String) throws(StorageError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw StorageError(.io, "cannot open \(path) to flush it: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            throw StorageError(.io, "cannot flush \(path): \(String(cString: strerror(errno)))")
        }
    }
}
