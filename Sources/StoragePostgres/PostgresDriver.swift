import Foundation
import Storage

/// The entry point the server uses for `database.url: postgres://…` (or the keyword/value form).
public enum PostgresDriver {
    /// Whether `url` is a PostgreSQL connection string rather than `sqlite:FILE`: a `postgres://` or
    /// `postgresql://` URL, or libpq keyword/value pairs (`host=… dbname=…`).
    public static func accepts(_ url: String) -> Bool {
        if case .postgres = DatabaseLocation(url: url) { return true }
        return false
    }

    /// Parses `url` (parts it leaves out come from the `PG*` variables of `environment`), applies `poolSize` when
    /// given, and opens the store.
    public static func open(
        _ url: String, poolSize: Int?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws(StorageError) -> PostgresStore {
        try await PostgresStore.open(try configuration(url, poolSize: poolSize, environment: environment))
    }

    /// Parses `url` as `open` does (parts it leaves out from the `PG*` variables of `environment`, `poolSize` when
    /// given), without connecting.
    public static func configuration(
        _ url: String, poolSize: Int?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(StorageError) -> PostgresConfiguration {
        var configuration = try PostgresConfiguration(url, environment: environment)
        if let poolSize { configuration.poolSize = poolSize }
        return configuration
    }
}
