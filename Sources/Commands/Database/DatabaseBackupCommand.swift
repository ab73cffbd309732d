import Configuration
import Foundation
import Service
import Storage
import StorageSQLite

/// `passkeyd database backup --out FILE`: a consistent copy of the SQLite database, taken beside a running server
/// (no stop, no lock taken: SQLite's own read transaction gives the snapshot, and in WAL mode the server's writes
/// go on meanwhile). PostgreSQL deployments back up with PostgreSQL's tools.
package struct DatabaseBackupCommand: Command, Equatable {
    /// `--out FILE`: the backup, a new file.
    static let destination = Option<String>.nonEmpty("--out", "FILE", required: true)

    package static let words = ["database", "backup"]
    package static let flags: [any Flag] = [destination] + ConfigurationOptions.flags
    package static let summary = """
        Write a consistent copy of the SQLite database to FILE (new, mode 0600), beside a running server;
        checked with SQLite's integrity check before it is given its name.
        """

    package var configuration: ConfigurationOptions
    package var destination: String

    package init(configuration: ConfigurationOptions = ConfigurationOptions(), destination: String) {
        self.configuration = configuration
        self.destination = destination
    }

    package init(_ arguments: ParsedArguments) throws(UsageError) {
        self.init(
            configuration: ConfigurationOptions(arguments), destination: try arguments.required(Self.destination))
    }

    package func run(_ context: CommandContext) async throws(CommandFailure) -> Int32 {
        let configuration = try configuration.load(context.environment)
        do {
            for line in try Self.run(configuration: configuration, to: destination) { context.output(line) }
        } catch {
            throw CommandFailure("database backup failed: \(error)")
        }
        return 0
    }

    /// Writes the backup and returns the lines to print.
    package static func run(configuration: ServerConfiguration, to destination: String) throws(DatabaseCommandFailure)
        -> [String]
    {
        let file = try DatabaseCommandFailure.sqliteFile(
            configuration,
            otherwise: "database.url is PostgreSQL: back it up with PostgreSQL's tools (pg_basebackup and WAL "
                + "archiving, or pg_dump); database backup copies a SQLite database")
        let started = ContinuousClock.now
        let summary: SQLiteBackup.Summary
        do {
            summary = try SQLiteBackup.write(source: file, to: destination)
        } catch {
            throw DatabaseCommandFailure("\(error)")
        }
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        let count = { (table: String) in summary.rows[table] ?? 0 }
        var lines = [
            "backed up \(file) to \(destination) (\(summary.bytes) bytes, schema version \(summary.schemaVersion)) in "
                + "\(String(format: "%.1f", seconds)) s; integrity check ok",
            "  users \(count("users")), passkeys \(count("credentials")), refresh tokens \(count("refresh_tokens")), "
                + "device keys \(count("device_keys")), audit log entries \(count("audit_log"))",
        ]
        if configuration.encryptionAtRest.keyFile == nil {
            lines.append(
                "warning: encryption_at_rest.key_file is not set, so this file holds the token-signing keys "
                    + "unencrypted: whoever reads it can mint tokens; keep it as you keep those keys")
        } else {
            lines.append(
                "restoring needs the encryption_at_rest key files as well (the secrets in it are sealed under them)")
        }
        return lines
    }
}
