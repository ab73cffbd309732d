import Configuration
import Foundation
import Service
import Storage
import StoragePostgres
import StorageSQLite

/// `passkeyd database copy --to URL`: moves a node's SQLite database into an empty PostgreSQL database, so an
/// operator who outgrows one node keeps every user, passkey, refresh token, device key, signing key and the audit
/// log when several nodes take over (docs/deployment.md, "From one node to several").
///
/// The source is the SQLite database the configuration names, read in one snapshot while the data directory's lock
/// is held (no node may run on it meanwhile); it is migrated first, as `serve` would. The target must hold nothing
/// yet (no table of another application either); it is migrated and receives everything in one transaction that
/// holds the lock a node's migration takes (a node starting on it meanwhile waits, then finds the copy), read back
/// and compared before it commits: a refused or failed copy leaves nothing behind. Sealed secrets move sealed: the
/// PostgreSQL nodes need the same key-encryption key files.
package struct DatabaseCopyCommand: Command, Equatable {
    /// `--to URL`: the PostgreSQL database.
    static let target = Option<String>.nonEmpty("--to", "URL", required: true)

    package static let words = ["database", "copy"]
    package static let flags: [any Flag] = [target] + ConfigurationOptions.flags
    package static let summary = """
        Copy the SQLite database the configuration names into the empty PostgreSQL database URL names
        (postgres://… or key=value pairs; PG… variables fill what it leaves out, so the password can stay
        out of the command line), in one transaction, read back and compared before it commits. No node may
        run on the data directory meanwhile.
        """

    package var configuration: ConfigurationOptions
    package var target: String

    package init(configuration: ConfigurationOptions = ConfigurationOptions(), target: String) {
        self.configuration = configuration
        self.target = target
    }

    package init(_ arguments: ParsedArguments) throws(UsageError) {
        self.init(configuration: ConfigurationOptions(arguments), target: try arguments.required(Self.target))
    }

    package func run(_ context: CommandContext) async throws(CommandFailure) -> Int32 {
        let configuration = try configuration.load(context.environment)
        do {
            for line in try await Self.run(configuration: configuration, to: target) { context.output(line) }
        } catch {
            throw CommandFailure("database copy failed: \(error)")
        }
        return 0
    }

    /// Copies and returns the lines to print.
    package static func run(configuration: ServerConfiguration, to target: String) async throws(DatabaseCommandFailure)
        -> [String]
    {
        let file = try DatabaseCommandFailure.sqliteFile(
            configuration,
            otherwise: "database.url is not SQLite: database copy reads the SQLite database of the configuration "
                + "(database.url: sqlite:FILE) and writes to the PostgreSQL database --to names")
        guard PostgresDriver.accepts(target) else {
            throw DatabaseCommandFailure(
                "--to must be a PostgreSQL connection string (postgres://… or key=value pairs)")
        }
        let lock = try DatabaseCommandFailure.lockDataDirectory(configuration)
        defer { lock.release() }
        let started = ContinuousClock.now
        let database: PostgresConfiguration
        do {
            // The source at this binary's schema, as `serve` would leave it.
            let sqlite = try await DatabaseDrivers.openStore(configuration)
            await sqlite.close()
            database = try PostgresDriver.configuration(target, poolSize: 1)
        } catch {
            throw DatabaseCommandFailure("\(error)")
        }
        let report: StoreImageReport
        do {
            // No store is opened on the target: it is migrated inside the copy's transaction, under the lock a
            // node's migration takes (`PostgresStore.importImage(into:)`).
            report = try await PostgresStore.importImage(into: database) { () throws(StorageError) in
                try SQLiteImageReader(path: file)
            }
        } catch {
            throw DatabaseCommandFailure("nothing was copied: \(error)")
        }
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        var lines = [
            "copied \(report.totalRows) rows of \(report.rows.count) tables from \(file) to \(database) "
                + "in \(String(format: "%.1f", seconds)) s; every table read back and compared before COMMIT"
        ]
        for (table, rows) in report.rows.sorted(by: { $0.key < $1.key }) { lines.append("  \(table): \(rows)") }
        lines.append(
            "  audit log: events through seq \(report.marks.auditedThrough) are in it, the rest queued; next event seq "
                + "\(report.marks.lastEventSeq + 1)")
        var keep: [String] = []
        if configuration.encryptionAtRest.keyFile != nil {
            keep.append("the same encryption_at_rest key files (the secrets moved sealed)")
        }
        if case .file(let path) = configuration.audit.signer {
            keep.append("the audit signing key \(path) (checkpoints go on under the same key)")
        }
        lines.append(
            "next: set database.url to the PostgreSQL database on every node, give each node "
                + (keep + ["a data directory of its own"]).joined(separator: ", ") + ", and start them; keep \(file) "
                + "until they serve")
        return lines
    }
}
