import Storage

/// Loads a `StoreImageSource` into an empty, migrated PostgreSQL schema inside the copy's one transaction
/// (`passkeyd database copy`, `PostgresImageImport+Transaction.swift`): all of it or, on any failure, nothing.
///
/// - The target's tables are locked ACCESS EXCLUSIVE, so that no node reads or writes them until the copy ended: a
///   node that migrated before the copy began and is about to create its signing keys (it reads that there are
///   none, then inserts) waits for the copy, then reads the copied keys; one that read or wrote first is waited for,
///   and what it wrote refuses the copy. The tables must hold nothing yet; the migration's seed row of `audit_tree`
///   is replaced by the source's.
/// - The table and column sets of both sides must be the same (the schemas share their versions), so a table a
///   later migration adds is copied without a change here, and one that only one driver has stops the copy.
/// - Values are converted by the target column's type, strictly: a SQLite integer goes into a `boolean` column only
///   as 0 or 1, and anything else that does not fit refuses the copy, naming the table and column.
/// - The marks become PostgreSQL's shapes: the queued events go into `audit_pending`, the last event seq into
///   `security_event_seq`.
/// - Before COMMIT every table is read back and its `TableChecksum` compared with the source's.
struct PostgresImageImport {
    let connection: PostgresConnection

    /// Tables that are the driver's bookkeeping or the shape of a mark (`StoreImageMarks`), never copied as rows.
    static let bookkeeping: Set<String> = [
        "schema_migrations", "heartbeat", "security_event_counter", "audit_pending", "commit_markers",
    ]
    /// Tables the migration seeds with a row the copy replaces.
    static let seeded: Set<String> = ["audit_tree"]
    /// Most parameters one statement may carry (the protocol's limit is 65,535).
    static let parametersPerStatement = 30_000
    /// Rows read back per FETCH.
    static let fetchRows = 2_000

    /// A target column: its name and how a stored value becomes a parameter.
    struct Column {
        let name: String
        let type: String

        var nullOID: UInt32 {
            switch type {
            case "boolean": PostgresValue.TypeOID.bool
            case "bigint", "integer": PostgresValue.TypeOID.int8
            case "double precision": PostgresValue.TypeOID.float8
            case "bytea": PostgresValue.TypeOID.bytea
            default: PostgresValue.TypeOID.text
            }
        }

        func parameter(_ value: StoredValue, table: String) throws(StorageError) -> PostgresValue {
            switch (type, value) {
            case (_, .null): return .null(nullOID)
            case ("boolean", .integer(let flag)) where flag == 0 || flag == 1: return .bool(flag == 1)
            case ("bigint", .integer(let number)): return .int8(number)
            case ("integer", .integer(let number)) where Int32(exactly: number) != nil: return .int8(number)
            case ("double precision", .real(let number)): return .float8(number)
            case ("text", .text(let string)) where !string.utf8.contains(0): return .text(string)
            case ("bytea", .bytes(let bytes)): return .bytea(bytes)
            default:
                throw StorageError(
                    .invalidRecord, "\(table).\(name): a stored \(Self.kind(value)) does not fit a \(type) column")
            }
        }

        static func kind(_ value: StoredValue) -> String {
            switch value {
            case .null: "NULL"
            case .integer(let number): "integer \(number)"
            case .real: "real"
            case .text: "text"
            case .bytes: "blob"
            }
        }
    }

    func run(_ source: any StoreImageSource) throws(StorageError) -> StoreImageReport {
        let sourceTables = try source.tables()
        let targetTables = try columnsByTable()
        try check(sourceTables, against: targetTables)
        let names = targetTables.keys.sorted()
        try connection.command(
            "LOCK TABLE \(names.map(SQLIdentifier.quoted).joined(separator: ", ")) IN ACCESS EXCLUSIVE MODE")
        try requireEmpty(names)
        for name in Self.seeded.intersection(names) {
            try connection.command("DELETE FROM \(SQLIdentifier.quoted(name))")
        }

        var checksums: [String: TableChecksum] = [:]
        let shapes = Dictionary(uniqueKeysWithValues: sourceTables.map { ($0.name, $0) })
        for name in try insertionOrder(names) {
            guard let shape = shapes[name], let columns = targetTables[name] else { continue }
            let byName = Dictionary(uniqueKeysWithValues: columns.map { ($0.name, $0) })
            let ordered = shape.columns.compactMap { byName[$0] }
            var checksum = TableChecksum()
            let batch = max(1, Self.parametersPerStatement / max(1, ordered.count))
            try source.rows(of: shape, batchSize: batch) { (batchRows) throws(StorageError) in
                var parameters: [PostgresValue] = []
                parameters.reserveCapacity(batchRows.count * ordered.count)
                for row in batchRows {
                    checksum.add(row)
                    for (column, value) in zip(ordered, row) {
                        parameters.append(try column.parameter(value, table: name))
                    }
                }
                try connection.execute(Self.insert(name, ordered, rows: batchRows.count), parameters)
            }
            checksums[name] = checksum
        }

        let marks = try source.marks()
        try connection.execute(
            "INSERT INTO audit_pending (event_seq) SELECT seq FROM security_events WHERE seq > $1",
            [.int8(marks.auditedThrough)])
        try connection.execute("UPDATE security_event_counter SET last_seq = $1", [.int8(marks.lastEventSeq)])
        // setval(…, n, true): the next seq is n + 1; with nothing given yet the next is 1.
        _ = try connection.query(
            "SELECT setval('security_event_seq', $1, $2)",
            [.int8(max(marks.lastEventSeq, 1)), .bool(marks.lastEventSeq > 0)]
        ) { (_) throws(StorageError) in () }

        for (name, expected) in checksums {
            guard let shape = shapes[name] else { continue }
            let actual = try readBack(shape)
            guard actual == expected else {
                throw StorageError(
                    .internalFailure,
                    "\(name): the rows read back differ from the rows copied (\(actual.rows) read back, "
                        + "\(expected.rows) copied)")
            }
        }
        return StoreImageReport(rows: checksums.mapValues(\.rows), marks: marks)
    }

    /// The target's tables (bookkeeping left out) and their columns, in the current schema.
    private func columnsByTable() throws(StorageError) -> [String: [Column]] {
        let listed = try connection.query(
            """
            SELECT c.table_name::text, c.column_name::text, c.data_type::text
            FROM information_schema.columns c
            JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
            WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
            ORDER BY c.table_name, c.ordinal_position
            """
        ) { (row) throws(StorageError) in (try row.text(0), Column(name: try row.text(1), type: try row.text(2))) }
        var tables: [String: [Column]] = [:]
        for (table, column) in listed where !Self.bookkeeping.contains(table) {
            tables[table, default: []].append(column)
        }
        return tables
    }

    private func check(_ source: [TableShape], against target: [String: [Column]]) throws(StorageError) {
        let sourceNames = Set(source.map(\.name))
        let targetNames = Set(target.keys)
        guard sourceNames == targetNames else {
            let onlySource = sourceNames.subtracting(targetNames).sorted().joined(separator: ", ")
            let onlyTarget = targetNames.subtracting(sourceNames).sorted().joined(separator: ", ")
            throw StorageError(
                .migration,
                "the two schemas hold different tables (only in the source: [\(onlySource)]; only in the target: "
                    + "[\(onlyTarget)]); the target must be a database or schema of passkeyd's own (in a shared "
                    + "database, give schema=NAME in the URL)")
        }
        for shape in source {
            let targetColumns = Set((target[shape.name] ?? []).map(\.name))
            guard Set(shape.columns) == targetColumns, shape.columns.count == targetColumns.count else {
                throw StorageError(
                    .migration,
                    "\(shape.name) has columns [\(shape.columns.joined(separator: ", "))] in the source and "
                        + "[\(targetColumns.sorted().joined(separator: ", "))] in the target")
            }
        }
    }

    /// The copied tables must hold nothing (`audit_tree` only its seed), nor may the audit queue: rows there left by
    /// hand would make the sequencer look for events that are not the copy's.
    private func requireEmpty(_ names: [String]) throws(StorageError) {
        for name in names {
            let condition = Self.seeded.contains(name) ? " WHERE size <> 0" : ""
            let held = try connection.query("SELECT EXISTS (SELECT 1 FROM \(SQLIdentifier.quoted(name))\(condition))") {
                (row) throws(StorageError) in try row.bool(0)
            }
            if held.first == true {
                throw StorageError(
                    .notEmpty,
                    "the target database already holds data (table \(name)); a copy goes into a database no node "
                        + "has used yet")
            }
        }
        let queued = try connection.query("SELECT EXISTS (SELECT 1 FROM audit_pending)") {
            (row) throws(StorageError) in try row.bool(0)
        }
        if queued.first == true {
            throw StorageError(.notEmpty, "the target database already holds data (table audit_pending)")
        }
    }

    /// `names` ordered so that every table comes after the tables its foreign keys name.
    private func insertionOrder(_ names: [String]) throws(StorageError) -> [String] {
        let references = try connection.query(
            """
            SELECT conrelid::regclass::text, confrelid::regclass::text FROM pg_constraint
            WHERE contype = 'f' AND connamespace = current_schema()::regnamespace
            """
        ) { (row) throws(StorageError) in (try row.text(0), try row.text(1)) }
        var needs: [String: Set<String>] = [:]
        for (table, referenced) in references where table != referenced { needs[table, default: []].insert(referenced) }
        var placed: [String] = []
        var remaining = names
        while !remaining.isEmpty {
            guard let next = remaining.first(where: { needs[$0, default: []].isSubset(of: placed) }) else {
                throw StorageError(
                    .internalFailure, "the foreign keys of [\(remaining.joined(separator: ", "))] form a cycle")
            }
            placed.append(next)
            remaining.removeAll { $0 == next }
        }
        return placed
    }

    /// The checksum of `shape`'s rows as the target gives them back, read through a cursor.
    private func readBack(_ shape: TableShape) throws(StorageError) -> TableChecksum {
        let columns = shape.columns.map(SQLIdentifier.quoted).joined(separator: ", ")
        try connection.command(
            "DECLARE passkeyd_copy NO SCROLL CURSOR FOR SELECT \(columns) FROM \(SQLIdentifier.quoted(shape.name))")
        var checksum = TableChecksum()
        let width = Int32(shape.columns.count)
        while true {
            let fetched = try connection.query("FETCH FORWARD \(Self.fetchRows) FROM passkeyd_copy") {
                (row) throws(StorageError) -> [StoredValue] in
                var values: [StoredValue] = []
                for column in 0..<width { values.append(try row.stored(column)) }
                return values
            }
            for row in fetched { checksum.add(row) }
            if fetched.count < Self.fetchRows { break }
        }
        try connection.command("CLOSE passkeyd_copy")
        return checksum
    }

    private static func insert(_ table: String, _ columns: [Column], rows: Int) -> String {
        var sql =
            "INSERT INTO \(SQLIdentifier.quoted(table)) (\(columns.map { SQLIdentifier.quoted($0.name) }.joined(separator: ", "))) VALUES "
        var parameter = 0
        for row in 0..<rows {
            if row > 0 { sql += ", " }
            sql += "("
            for index in columns.indices {
                parameter += 1
                sql += index == 0 ? "$\(parameter)" : ", $\(parameter)"
            }
            sql += ")"
        }
        return sql
    }

}
