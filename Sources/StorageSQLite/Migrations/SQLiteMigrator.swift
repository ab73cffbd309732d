import Foundation
import Storage

/// Applies a migration list to a SQLite database inside one transaction, recording each step in
/// `schema_migrations`; refuses a database newer than the list (see `MigrationPlan`).
enum SQLiteMigrator {
    static func migrate(_ database: SQLiteDatabase, migrations: [Migration]) throws(StorageError) {
        let plan = try MigrationPlan(migrations)
        try database.execute("BEGIN IMMEDIATE")
        do throws(StorageError) {
            try database.executeScript(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version INTEGER PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL,
                    applied_at REAL NOT NULL
                ) STRICT
                """)
            let applied = try database.query("SELECT version, name FROM schema_migrations") {
                (row) throws(StorageError) in (version: Int(try row.integer(0)), name: try row.text(1))
            }
            for migration in try plan.pending(applied: applied) {
                for statement in migration.statements {
                    do {
                        try database.executeScript(statement)
                    } catch {
                        throw StorageError(
                            .migration, "migration \(migration.version) \(migration.name) failed: \(error.reason)")
                    }
                }
                try database.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                    [.integer(Int64(migration.version)), .text(migration.name), .date(Date())])
            }
            try database.execute("COMMIT")
        } catch {
            if !database.isAutocommit { _ = try? database.execute("ROLLBACK") }  // the migration error is reported
            throw error
        }
    }
}
