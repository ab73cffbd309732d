import Storage

/// A SQLite database read as a `StoreImage` source (`passkeyd database copy`), inside one read transaction: one
/// snapshot of every table, whatever another connection commits meanwhile.
///
/// Opened read-only on its own connection, confined to the thread that made it. The audit queue position
/// (`audit_tree.last_event_seq`) and the last event seq ever given (`sqlite_sequence`) are SQLite's own shapes:
/// they leave the image as its marks, not as columns.
package final class SQLiteImageReader: StoreImageSource {
    private let database: SQLiteDatabase
    package let schemaVersion: Int

    /// Tables that are the driver's bookkeeping, not data: never copied.
    static let bookkeeping: Set<String> = ["schema_migrations", "heartbeat"]
    /// Columns that are the driver's own shape of a mark (`marks()`), by table.
    static let markColumns: [String: Set<String>] = ["audit_tree": ["last_event_seq"]]

    /// Opens the database at `path` read-only and begins the snapshot.
    /// - Throws: `.migration` when `path` is not a passkeyd database (no `schema_migrations`), or what SQLite reports.
    package init(path: String) throws(StorageError) {
        database = try SQLiteDatabase(path: path, readOnly: true, busyTimeoutMilliseconds: 5_000)
        try database.executeScript("BEGIN")
        guard let version = try database.schemaVersion() else {
            throw StorageError(.migration, "\(path) is not a passkeyd database (no schema_migrations table)")
        }
        schemaVersion = version
    }

    deinit {
        try? database.executeScript("COMMIT")
    }

    package func tables() throws(StorageError) -> [TableShape] {
        let names = try database.tableNames()
        var shapes: [TableShape] = []
        for name in names where !Self.bookkeeping.contains(name) {
            let skipped = Self.markColumns[name] ?? []
            let columns = try database.query("PRAGMA table_info(\(SQLIdentifier.quoted(name)))") {
                (statement) throws(StorageError) in try statement.text(1)
            }
            shapes.append(TableShape(name: name, columns: columns.filter { !skipped.contains($0) }))
        }
        return shapes
    }

    package func rows(of table: TableShape, batchSize: Int, _ body: ([[StoredValue]]) throws(StorageError) -> Void)
        throws(StorageError)
    {
        let columns = table.columns.map(SQLIdentifier.quoted).joined(separator: ", ")
        let statement = try database.statement("SELECT \(columns) FROM \(SQLIdentifier.quoted(table.name))")
        defer { statement.reset() }
        let width = Int32(table.columns.count)
        var batch: [[StoredValue]] = []
        batch.reserveCapacity(batchSize)
        while try statement.step() {
            var row: [StoredValue] = []
            row.reserveCapacity(Int(width))
            for column in 0..<width { row.append(try statement.stored(column)) }
            batch.append(row)
            if batch.count == batchSize {
                try body(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { try body(batch) }
    }

    package func marks() throws(StorageError) -> StoreImageMarks {
        let audited =
            try database.query("SELECT last_event_seq FROM audit_tree WHERE id = 1") {
                (statement) throws(StorageError) in try statement.integer(0)
            }.first ?? 0
        // AUTOINCREMENT keeps the highest seq ever given in sqlite_sequence; the newest events may have gone.
        let given =
            try database.query(
                """
                SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'security_events'), 0),
                           coalesce((SELECT max(seq) FROM security_events), 0))
                """
            ) { (statement) throws(StorageError) in try statement.integer(0) }.first ?? 0
        return StoreImageMarks(auditedThrough: audited, lastEventSeq: given)
    }

}
