import Storage

/// The copy's one transaction (`passkeyd database copy`), on a connection of its own, with no store opened on the
/// target first (a store migrates at open, in a transaction of its own that would commit the tables before the copy
/// looked at the target):
///
/// 1. BEGIN (READ COMMITTED: every statement sees what committed before it, so the emptiness check after the locks
///    sees whatever a node wrote before it was locked out), the operator's timeouts lifted as for a migration.
/// 2. The migration's advisory lock (`PostgresMigrator.lock`), held to COMMIT or ROLLBACK: a node starting on the
///    target meanwhile waits in its migration, then finds the copy committed (migrated, its signing keys there, so
///    it makes none of its own) or rolled back (nothing there).
/// 3. The target must hold no table, or passkeyd's (`schema_migrations` among them): another application's tables
///    refuse the copy before anything is created.
/// 4. The migrations (`PostgresMigrator.apply`), the rows (`PostgresImageImport.run`, which locks the tables and
///    requires them empty), the read-back, COMMIT.
///
/// A refusal or a failure at any step rolls everything back: no schema, table or row is left behind.
extension PostgresImageImport {
    static func copy(
        _ connection: PostgresConnection, schema: String?, migrations: [Migration],
        _ makeSource: () throws(StorageError) -> any StoreImageSource
    ) throws(StorageError) -> StoreImageReport {
        let plan = try MigrationPlan(migrations)
        try connection.connectIfNeeded()
        connection.resetFailure()
        let source = try makeSource()
        guard source.schemaVersion == plan.latestVersion else {
            throw StorageError(
                .migration,
                "the source is at schema version \(source.schemaVersion), this passkeyd's PostgreSQL schema at "
                    + "\(plan.latestVersion)")
        }
        try connection.command("BEGIN ISOLATION LEVEL READ COMMITTED")
        do throws(StorageError) {
            // As for migrations: an operator's timeouts bound requests, not a copy of every table.
            try PostgresMigrator.liftTimeouts(connection)
            try PostgresMigrator.lock(connection, schema: schema)
            try requireNoOtherTables(connection, schema: schema)
            try PostgresMigrator.apply(plan, on: connection, schema: schema)
            let report = try PostgresImageImport(connection: connection).run(source)
            guard try connection.command("COMMIT") == "COMMIT" else {
                throw StorageError(.internalFailure, "COMMIT of the copy was rolled back")
            }
            return report
        } catch {
            if connection.isConnected { _ = try? connection.command("ROLLBACK") }
            throw error
        }
    }

    /// Refuses a target schema that holds tables (or views) but not `schema_migrations`: another application's,
    /// which the copy must not migrate passkeyd's tables in beside. A schema of passkeyd's own may be at an older
    /// version (it is migrated next); tables of others beside passkeyd's are refused once it is migrated, by
    /// `run`'s comparison of the table sets, and rolled back with it.
    private static func requireNoOtherTables(_ connection: PostgresConnection, schema: String?)
        throws(StorageError)
    {
        let tables = try connection.query(
            """
            SELECT c.relname::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = coalesce($1::text, current_schema()) AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
            ORDER BY 1
            """, [.optionalText(schema)]
        ) { (row) throws(StorageError) in try row.text(0) }
        guard !tables.isEmpty, !tables.contains("schema_migrations") else { return }
        let shown = tables.prefix(10).joined(separator: ", ") + (tables.count > 10 ? ", …" : "")
        throw StorageError(
            .notEmpty,
            "the target already holds tables that are not passkeyd's ([\(shown)]); a copy goes into a database or "
                + "schema of passkeyd's own (in a shared database, give schema=NAME in the URL), and nothing was "
                + "created")
    }
}

extension PostgresStore {
    /// Copies the image `makeSource` opens into the database (or schema) `configuration` names, in the one
    /// transaction `PostgresImageImport.copy` describes, on a connection of its own (the source is made, read and
    /// released on that connection's thread): `passkeyd database copy`. The target is migrated inside the
    /// transaction, not before it, so a copy that fails leaves nothing behind.
    /// - Parameter migrations: the schema to migrate to; `PostgresSchema.migrations` except in tests of migration.
    /// - Throws: `.busy` when the database cannot be reached, `.migration` when the schemas differ, `.notEmpty` when
    ///   the target holds data or another application's tables, `.invalidRecord` when a value does not fit its
    ///   column; nothing is written then.
    package static func importImage(
        into configuration: PostgresConfiguration, migrations: [Migration] = PostgresSchema.migrations,
        _ makeSource: @escaping @Sendable () throws(StorageError) -> any StoreImageSource
    ) async throws(StorageError) -> StoreImageReport {
        var single = configuration
        single.poolSize = 1
        let pool = PostgresPool(configuration: single)
        do {
            let report = try await pool.withConnection { connection in
                try PostgresImageImport.copy(
                    connection, schema: configuration.schema, migrations: migrations, makeSource)
            }
            await pool.close()
            return report
        } catch let error as StorageError {
            await pool.close()
            throw error
        } catch {
            await pool.close()
            throw StorageError(.internalFailure, "\(error)")
        }
    }
}
