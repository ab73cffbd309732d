import Storage

/// For tests of this package and of `passkeyd database copy`: the database as it is, on a connection of its own that
/// migrates nothing, and the migration's advisory lock seen from outside.
extension PostgresStore {
    /// Runs `sql` (no parameters, no rows; several statements allowed) on a connection of its own, migrating nothing.
    package static func executeUnmigratedForTesting(_ sql: String, on configuration: PostgresConfiguration) async throws
    {
        try await unmigrated(configuration) { connection in _ = try connection.command(sql) }
    }

    /// The tables and views of `configuration`'s schema (its `search_path` when it names none), by name, migrating
    /// nothing; empty when the schema does not exist.
    package static func tablesForTesting(_ configuration: PostgresConfiguration) async throws -> [String] {
        let schema = configuration.schema
        return try await unmigrated(configuration) { connection in
            try connection.query(
                """
                SELECT c.relname::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = coalesce($1::text, current_schema()) AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
                ORDER BY 1
                """, [.optionalText(schema)]
            ) { (row) throws(StorageError) in try row.text(0) }
        }
    }

    /// How many sessions wait for the migration's advisory lock of `configuration`'s schema (`PostgresMigrator.lock`).
    package static func migrationLockWaitersForTesting(_ configuration: PostgresConfiguration) async throws -> Int {
        let schema = configuration.schema
        return try await unmigrated(configuration) { connection in
            // pg_locks shows a two-key advisory lock as classid (the first key), objid (the second), objsubid 2.
            try connection.query(
                """
                SELECT count(*) FROM pg_locks l, (SELECT \(PostgresMigrator.lockKey)) AS k(first, second)
                WHERE l.locktype = 'advisory' AND NOT l.granted AND l.objsubid = 2
                AND l.classid = k.first::oid AND l.objid = k.second::oid
                AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                """, [.optionalText(schema)]
            ) { (row) throws(StorageError) in Int(try row.integer(0)) }.first ?? 0
        }
    }

    /// Runs `body` while a session of its own holds the migration's advisory lock of `configuration`'s schema (as a
    /// node's migration in progress does); the lock is released when `body` returns or throws.
    package static func holdingMigrationLockForTesting<T: Sendable>(
        _ configuration: PostgresConfiguration, _ body: () async throws -> T
    ) async throws -> T {
        var single = configuration
        single.poolSize = 1
        let pool = PostgresPool(configuration: single)
        let schema = configuration.schema
        do {
            // One slot: the three leases below run on the same connection, so the transaction spans them.
            try await pool.withConnection { connection in
                try connection.connectIfNeeded()
                try connection.command("BEGIN")
                try PostgresMigrator.lock(connection, schema: schema)
            }
            let value = try await body()
            try await pool.withConnection { connection in _ = try connection.command("ROLLBACK") }
            await pool.close()
            return value
        } catch {
            await pool.close()  // closing the connection ends its transaction, and the lock with it
            throw error
        }
    }

    /// Runs `work` on a connection of its own to `configuration`'s database, migrating nothing.
    private static func unmigrated<T: Sendable>(
        _ configuration: PostgresConfiguration, _ work: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T {
        var single = configuration
        single.poolSize = 1
        let pool = PostgresPool(configuration: single)
        do {
            let value = try await pool.withConnection { connection in
                try connection.connectIfNeeded()
                return try work(connection)
            }
            await pool.close()
            return value
        } catch {
            await pool.close()
            throw error
        }
    }
}
