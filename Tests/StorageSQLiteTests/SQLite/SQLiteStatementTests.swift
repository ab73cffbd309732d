import Foundation
import Storage
import Testing

@testable import StorageSQLite

/// The bounds- and type-checked column reads and the binding rules, on an in-memory database.
@Suite("SQLiteStatement")
struct SQLiteStatementTests {
    let database: SQLiteDatabase

    init() throws {
        database = try SQLiteDatabase(path: ":memory:", readOnly: false, busyTimeoutMilliseconds: 0)
        try database.executeScript("CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB)")
        try database.execute("INSERT INTO t VALUES (?, ?, ?, ?)", [.integer(2), .real(1.5), .text(""), .blob([])])
    }

    @Test("empty text and empty blobs are stored as empty values, not NULL")
    func emptyValuesAreNotNull() throws {
        let row = try database.query("SELECT s, b, s IS NULL, b IS NULL FROM t") {
            (row) throws(StorageError) in (try row.text(0), try row.blob(1), try row.integer(2), try row.integer(3))
        }
        #expect(row.first?.0 == "")
        #expect(row.first?.1 == [])
        #expect(row.first?.2 == 0)
        #expect(row.first?.3 == 0)
    }

    @Test("a column index past the end is refused")
    func columnOutOfRange() {
        #expect(throws: StorageError(.internalFailure, "")) {
            try database.query("SELECT i FROM t") { (row) throws(StorageError) in try row.integer(1) }
        }
        #expect(throws: StorageError(.internalFailure, "")) {
            try database.query("SELECT i FROM t") { (row) throws(StorageError) in try row.integer(-1) }
        }
    }

    @Test("reading a column as another type is refused", arguments: [0, 1, 2, 3])
    func typeMismatch(column: Int) {
        #expect(throws: StorageError(.invalidRecord, "")) {
            try database.query("SELECT i, r, s, b FROM t") { (row) throws(StorageError) in
                switch column {
                case 0: _ = try row.text(0)
                case 1: _ = try row.integer(1)
                case 2: _ = try row.blob(2)
                default: _ = try row.real(3)
                }
            }
        }
    }

    @Test("an integer other than 0 or 1 is not a boolean")
    func notABoolean() {
        #expect(throws: StorageError(.invalidRecord, "")) {
            try database.query("SELECT i FROM t") { (row) throws(StorageError) in try row.bool(0) }
        }
    }

    @Test("an unknown enumeration value is refused")
    func unknownEnumeration() {
        #expect(throws: StorageError(.invalidRecord, "")) {
            try database.query("SELECT 'maybe'") { (row) throws(StorageError) in
                try row.enumeration(0, as: DeviceKey.Status.self)
            }
        }
    }

    @Test("a wrong number of arguments is refused before running")
    func argumentCount() {
        #expect(throws: StorageError(.internalFailure, "")) {
            try database.execute("INSERT INTO t (i) VALUES (?)", [])
        }
    }

    @Test("invalid SQL is reported through the funnel")
    func invalidSQL() {
        #expect(throws: StorageError(.internalFailure, "")) { try database.execute("NOT SQL") }
    }

    @Test("a stored transports value that is not a JSON array is an invalid record")
    func badTransports() {
        #expect(throws: StorageError(.invalidRecord, "")) { try TransportsColumn.decode("usb") }
    }
}
