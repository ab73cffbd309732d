import Storage

/// What the tests of this package ask of a store beyond the `Store` protocol.
extension PostgresStore {
    /// Runs `sql` (no parameters, no rows) on a pooled connection outside any transaction.
    package func executeForTesting(_ sql: String) async throws {
        try await pool.withConnection { connection in
            try connection.connectIfNeeded()
            try connection.command(sql)
        }
    }

    /// Drops `configuration.schema` and everything in it, connecting without migrating anything.
    package static func dropSchemaForTesting(_ configuration: PostgresConfiguration) async {
        guard let schema = configuration.schema else { return }
        var admin = configuration
        admin.schema = nil
        admin.poolSize = 1
        let pool = PostgresPool(configuration: admin)
        _ = try? await pool.withConnection { connection in
            try connection.connectIfNeeded()
            // `schema` is a plain identifier (checked by PostgresConfiguration).
            try connection.command("DROP SCHEMA IF EXISTS \(schema) CASCADE")
        }
        await pool.close()
    }

    /// The versions recorded in `schema_migrations`, ascending.
    package func appliedSchemaVersions() async throws -> [Int] {
        try await read { _ in () }  // connects
        return try await pool.withConnection { connection in
            try connection.query("SELECT version FROM schema_migrations ORDER BY version") {
                (row) throws(StorageError) in Int(try row.integer(0))
            }
        }
    }
}
