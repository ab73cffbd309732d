import Storage

/// The PostgreSQL driver: NOT IMPLEMENTED in this release.
///
/// Only `PostgresConfiguration` exists. The server should validate a `postgres://` URL with it (so a typo is
/// reported as such) and then refuse to start with `notImplementedMessage`. Every piece of shared state already
/// goes through `Store`, so the driver can be added behind the same behaviour suite.
public enum PostgresDriver {
    /// Whether the driver can open a store. False in this release.
    public static let isImplemented = false

    /// What to tell an operator who configured PostgreSQL.
    public static let notImplementedMessage =
        "PostgreSQL storage is not implemented yet in this passkeyd release; use the embedded SQLite database"

    /// Always throws `.notImplemented` (after validating nothing further than `configuration` already did).
    public static func open(_ configuration: PostgresConfiguration) async throws(StorageError) -> any Store {
        throw StorageError(.notImplemented, "\(notImplementedMessage) (configured: \(configuration))")
    }
}
