import Configuration
import Foundation
import Service
import Storage
import StorageSQLite

/// `passkeyd database restore --from FILE`: puts a backup (`passkeyd database backup`) in place of the SQLite
/// database, with the server stopped. The backup is checked first, the database it replaces is kept (moved aside with
/// its WAL, never deleted), and the result is opened once as `serve` would open it (migrating an older backup).
package struct DatabaseRestoreCommand: Command, Equatable {
    /// `--from FILE`: the backup.
    static let backup = Option<String>.nonEmpty("--from", "FILE", required: true)

    package static let words = ["database", "restore"]
    package static let flags: [any Flag] = [backup] + ConfigurationOptions.flags
    package static let summary = """
        Put the backup FILE in place of the SQLite database (no server may run on the data directory); the
        database it replaces is moved aside with its WAL, never deleted.
        """

    package var configuration: ConfigurationOptions
    package var backup: String

    package init(configuration: ConfigurationOptions = ConfigurationOptions(), backup: String) {
        self.configuration = configuration
        self.backup = backup
    }

    package init(_ arguments: ParsedArguments) throws(UsageError) {
        self.init(configuration: ConfigurationOptions(arguments), backup: try arguments.required(Self.backup))
    }

    package func run(_ context: CommandContext) async throws(CommandFailure) -> Int32 {
        let configuration = try configuration.load(context.environment)
        do {
            for line in try await Self.run(configuration: configuration, from: backup) { context.output(line) }
        } catch {
            throw CommandFailure("database restore failed: \(error)")
        }
        return 0
    }

    /// Restores and returns the lines to print.
    package static func run(configuration: ServerConfiguration, from backup: String, now: Date = Date())
        async throws(DatabaseCommandFailure) -> [String]
    {
        guard let file = configuration.sqliteFile else {
            throw DatabaseCommandFailure(
                "database.url is PostgreSQL: restore it with PostgreSQL's tools; database restore puts a "
                    + "SQLite backup in place")
        }
        guard FileManager.default.fileExists(atPath: backup) else {
            throw DatabaseCommandFailure("there is no backup at \(backup)")
        }
        let lock = try DatabaseCommandFailure.lockDataDirectory(configuration)
        defer { lock.release() }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withYear, .withMonth, .withDay, .withTime, .withTimeZone]
        let suffix = formatter.string(from: now).replacingOccurrences(of: ":", with: "")
        let restored: (summary: SQLiteBackup.Summary, aside: String?)
        do {
            restored = try SQLiteBackup.restore(backup: backup, in: file, asideSuffix: suffix)
            let store = try await DatabaseDrivers.openStore(configuration)
            await store.close()
        } catch {
            throw DatabaseCommandFailure("\(error)")
        }
        let count = { (table: String) in restored.summary.rows[table] ?? 0 }
        var lines = [
            "restored \(file) from \(backup) (schema version \(restored.summary.schemaVersion), integrity check ok): "
                + "users \(count("users")), passkeys \(count("credentials")), refresh tokens "
                + "\(count("refresh_tokens")), audit log entries \(count("audit_log"))"
        ]
        if let aside = restored.aside {
            lines.append("the database it replaced is kept at \(aside) (with its -wal and -shm, if it had them)")
        }
        lines.append(
            "this goes back in time: refresh tokens rotated since the backup are valid again (passkeyd sessions "
                + "revoke-all ends every session), and checkpoints signed since no longer match the shorter audit log")
        return lines
    }
}
