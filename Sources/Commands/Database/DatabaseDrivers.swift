import Configuration
import Foundation
import Service
import Storage
import StoragePostgres
import StorageSQLite

/// The database drivers, in one place: which one opens the configured store, its check of `database.url` at load,
/// and how the database is named in logs. The commands and the composition root use it; the core knows no driver.
package enum DatabaseDrivers {
    /// The PostgreSQL driver's check of a PostgreSQL `database.url` (parsed with the `PG*` variables, so that a typo
    /// stops the start with the field's name); nil when it is well-formed or not PostgreSQL.
    package static let checkURL: ServerConfiguration.DatabaseURLCheck = { url in
        guard case .postgres(let connection) = DatabaseLocation(url: url) else { return nil }
        do {
            _ = try PostgresConfiguration(connection, environment: ProcessInfo.processInfo.environment)
            return nil
        } catch let error as StorageError {
            return error.reason
        } catch {
            return String(describing: error)
        }
    }

    /// The database for logs: the SQLite file, or the PostgreSQL connection with its password redacted.
    package static func description(of configuration: ServerConfiguration) -> String {
        if let file = configuration.sqliteFile { return file }
        return
            (try? PostgresConfiguration(configuration.database.url, environment: ProcessInfo.processInfo.environment))?
            .description ?? "PostgreSQL"
    }

    /// Opens the database: PostgreSQL for a `postgres://` URL or libpq key=value pairs (migrating it under an
    /// advisory lock, so nodes starting together migrate once), else the SQLite database in the data directory,
    /// creating both on first start.
    package static func openStore(_ configuration: ServerConfiguration) async throws -> any Store {
        if case .postgres = configuration.databaseLocation {
            let poolSize = configuration.database.poolSize
            return try await PostgresDriver.open(configuration.database.url, poolSize: poolSize > 0 ? poolSize : nil)
        }
        guard let file = configuration.sqliteFile else {
            throw StartError(description: "database.url: must be sqlite:FILE or a PostgreSQL connection string")
        }
        let url = URL(fileURLWithPath: file)
        let sqlite = SQLiteConfiguration(
            directory: url.deletingLastPathComponent().path, fileName: url.lastPathComponent,
            synchronous: configuration.database.synchronous)
        return try await SQLiteStore.open(sqlite)
    }

    /// Runs an operator command's `body` on the configured store, opened for it and closed after, whatever `body`
    /// did. Operator commands run beside a running server on the same data directory, so this does not take the
    /// directory's lock (`DataDirectoryLock`): their writes are serialized with the server's by SQLite's own file
    /// locking, or by PostgreSQL's transactions.
    package static func withStore<T>(_ configuration: ServerConfiguration, _ body: (any Store) async throws -> T)
        async throws -> T
    {
        let store = try await openStore(configuration)
        do {
            let value = try await body(store)
            await store.close()
            return value
        } catch {
            await store.close()
            throw error
        }
    }
}
