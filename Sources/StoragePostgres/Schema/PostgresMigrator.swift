import Foundation
import Storage

/// Applies a migration list in one transaction that first takes a transaction-scoped advisory lock, so that of
/// several nodes starting together one migrates and the others wait, then find nothing pending. Refuses a
/// database newer than the list (see `MigrationPlan`). The lock is released by COMMIT or ROLLBACK, also when
/// the connection is lost.
///
/// The operator's `statement_timeout` and `lock_timeout` (`options` in `database.url`) bound request transactions,
/// not this one: a migration that rewrites a large table, or a node waiting for another node's migration, may take
/// longer than any request should, and failing it would keep the node from starting at all. They are lifted for this
/// transaction only (`SET LOCAL`).
///
/// `passkeyd database copy` runs the same steps (`liftTimeouts`, `lock`, `apply`) inside its own transaction, so a
/// node that starts on its target meanwhile waits for the lock until the copy committed or rolled back
/// (`PostgresImageImport+Transaction.swift`).
enum PostgresMigrator {
    static func migrate(_ connection: PostgresConnection, schema: String?, migrations: [Migration])
        throws(StorageError)
    {
        let plan = try MigrationPlan(migrations)
        try connection.command("BEGIN ISOLATION LEVEL READ COMMITTED")
        do throws(StorageError) {
            try liftTimeouts(connection)
            try lock(connection, schema: schema)
            try apply(plan, on: connection, schema: schema)
            let tag = try connection.command("COMMIT")
            guard tag == "COMMIT" else { throw StorageError(.migration, "migration transaction ended in \(tag)") }
        } catch {
            if connection.isConnected { _ = try? connection.command("ROLLBACK") }  // the migration error is reported
            throw error
        }
    }

    /// Lifts the operator's `statement_timeout` and `lock_timeout` for the transaction in progress.
    static func liftTimeouts(_ connection: PostgresConnection) throws(StorageError) {
        try connection.command("SET LOCAL statement_timeout = 0")
        try connection.command("SET LOCAL lock_timeout = 0")
    }

    /// Takes the migration's advisory lock for the transaction in progress, waiting while another transaction holds
    /// it. One lock per schema, so independent deployments sharing a database do not wait for each other.
    static func lock(_ connection: PostgresConnection, schema: String?) throws(StorageError) {
        try connection.execute(
            "SELECT pg_advisory_xact_lock(\(lockKey))", [.optionalText(schema)])
    }

    /// The lock's two keys, as SQL over the parameter `$1` (the schema, or NULL for the connection's own).
    static let lockKey = "hashtext('passkeyd.migrate'), hashtext(coalesce($1::text, current_schema(), ''))"

    /// Creates the schema (if one is named) and `schema_migrations` if missing and applies the pending migrations,
    /// in the transaction in progress, which must hold the lock (`lock`).
    static func apply(_ plan: MigrationPlan, on connection: PostgresConnection, schema: String?)
        throws(StorageError)
    {
        if let schema {
            // `schema` is a plain identifier (checked by PostgresConfiguration), safe to splice.
            try connection.command("CREATE SCHEMA IF NOT EXISTS \(schema)")
        }
        try connection.command(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version bigint NOT NULL PRIMARY KEY,
                name text NOT NULL,
                applied_at double precision NOT NULL
            )
            """)
        let applied = try connection.query("SELECT version, name FROM schema_migrations") {
            (row) throws(StorageError) in (version: Int(try row.integer(0)), name: try row.text(1))
        }
        for migration in try plan.pending(applied: applied) {
            for statement in migration.statements {
                do {
                    try connection.command(statement)
                } catch {
                    throw StorageError(
                        .migration, "migration \(migration.version) \(migration.name) failed: \(error.reason)")
                }
            }
            try connection.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
                [.integer(migration.version), .text(migration.name), .date(Date())])
        }
    }
}
