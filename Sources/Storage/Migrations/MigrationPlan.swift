/// Decides which migrations to apply to a database, and refuses the databases this binary must not open.
///
/// Pure: a driver reads the applied `(version, name)` rows, asks the plan, then runs `pending` in one transaction.
public struct MigrationPlan: Sendable, Hashable {
    /// The migrations the binary knows, validated (versions 1, 2, … with no gaps).
    public let migrations: [Migration]

    /// Validates `migrations`: versions must be 1, 2, 3, … in order, with no gap or repeat.
    /// - Throws: `.migration` for a malformed list (a programming error caught at open, not a crash).
    public init(_ migrations: [Migration]) throws(StorageError) {
        for (index, migration) in migrations.enumerated() where migration.version != index + 1 {
            throw StorageError(
                .migration, "migration list malformed: position \(index + 1) has version \(migration.version)")
        }
        self.migrations = migrations
    }

    /// The highest version the binary knows (0 for an empty list).
    public var latestVersion: Int { migrations.last?.version ?? 0 }

    /// The migrations still to apply to a database whose `schema_migrations` holds `applied`.
    /// - Throws: `.migration` if the database has a version this binary does not know (it is newer: opening it
    ///   could corrupt data written by the newer binary), or if an applied version carries another name.
    public func pending(applied: [(version: Int, name: String)]) throws(StorageError) -> [Migration] {
        let current = applied.map(\.version).max() ?? 0
        guard current <= latestVersion else {
            throw StorageError(
                .migration,
                "database schema version \(current) is newer than this binary's \(latestVersion); upgrade passkeyd")
        }
        for row in applied {
            guard let known = migrations.first(where: { $0.version == row.version }) else {
                throw StorageError(.migration, "database has unknown schema version \(row.version)")
            }
            guard known.name == row.name else {
                throw StorageError(
                    .migration,
                    "schema version \(row.version) is \"\(row.name)\" in the database, \"\(known.name)\" here")
            }
        }
        return migrations.filter { $0.version > current }
    }
}
