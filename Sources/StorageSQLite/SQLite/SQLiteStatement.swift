import Storage
import Foundation
internal import CSQLite

/// The one owner of a prepared `sqlite3_stmt*`, finalized in `deinit`; confined like its `SQLiteDatabase`.
///
/// Columns are read by index; every read checks the index against the column count and the stored type.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private unowned let database: SQLiteDatabase

    init(handle: OpaquePointer, database: SQLiteDatabase) {
        self.handle = handle
        self.database = database
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Resets the statement for another run and clears its bindings.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds `arguments` to parameters 1…n; SQLite copies every text and blob (SQLITE_TRANSIENT via the shim).
    func bind(_ arguments: [SQLiteValue]) throws(StorageError) {
        guard arguments.count == Int(sqlite3_bind_parameter_count(handle)) else {
            throw StorageError(.internalFailure, "statement expects \(sqlite3_bind_parameter_count(handle)) arguments")
        }
        for (offset, argument) in arguments.enumerated() {
            let index = Int32(offset + 1)
            let rc: Int32
            switch argument {
            case .null: rc = sqlite3_bind_null(handle, index)
            case .integer(let value): rc = sqlite3_bind_int64(handle, index, value)
            case .real(let value): rc = sqlite3_bind_double(handle, index, value)
            case .text(let value): rc = try bindText(value, at: index)
            case .blob(let value): rc = try bindBlob(value, at: index)
            }
            guard rc == SQLITE_OK else { throw database.error(rc, context: "bind \(index)") }
        }
    }

    private func bindText(_ text: String, at index: Int32) throws(StorageError) -> Int32 {
        // The string's own UTF-8 (a native string's storage, no copy into an array first; SQLite copies it).
        var text = text
        let count = text.utf8.count
        guard count < Int32.max else { throw StorageError(.invalidRecord, "text of \(count) bytes") }
        // An empty buffer may have no base address, which SQLite would bind as NULL: bind "" explicitly.
        guard count > 0 else { return "".withCString { CSQLite_bind_text_transient(handle, index, $0, 0) } }
        return text.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                CSQLite_bind_text_transient(handle, index, $0.baseAddress, Int32(buffer.count))
            }
        }
    }

    private func bindBlob(_ bytes: [UInt8], at index: Int32) throws(StorageError) -> Int32 {
        guard bytes.count < Int32.max else { throw StorageError(.invalidRecord, "blob of \(bytes.count) bytes") }
        // Same as text: a NULL pointer would bind NULL, so an empty blob is a zero-length zeroblob.
        guard !bytes.isEmpty else { return sqlite3_bind_zeroblob(handle, index, 0) }
        return bytes.withUnsafeBytes { CSQLite_bind_blob_transient(handle, index, $0.baseAddress, Int32($0.count)) }
    }

    /// Steps once: true when a row is available, false when done.
    func step() throws(StorageError) -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = database.error(rc, context: "step")
            sqlite3_reset(handle)
            throw error
        }
    }

    // MARK: Columns (bounds- and type-checked)

    /// Added to every column index read: non-zero only inside `reading(from:_:)`.
    private var columnOffset: Int32 = 0

    /// Runs `body` with column indexes counted from `offset`, so that a record's decoder (which counts from 0) reads
    /// a record that a join put after other columns (as `PostgresRow.skipping`).
    func reading<T>(from offset: Int32, _ body: () throws(StorageError) -> T) throws(StorageError) -> T {
        let saved = columnOffset
        columnOffset = saved + offset
        defer { columnOffset = saved }
        return try body()
    }

    /// The statement's column for `index`, checked against the column count, and the type stored there.
    private func checked(_ index: Int32) throws(StorageError) -> (column: Int32, type: Int32) {
        let column = index + columnOffset
        guard index >= 0, column < sqlite3_column_count(handle) else {
            throw StorageError(.internalFailure, "column \(column) out of range")
        }
        return (column, sqlite3_column_type(handle, column))
    }

    /// Column `index` as it is stored, whatever its type (copying a table without decoding its records).
    func stored(_ index: Int32) throws(StorageError) -> StoredValue {
        let (column, type) = try checked(index)
        switch type {
        case SQLITE_NULL: return .null
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT: return .text(try text(index))
        default: return .bytes(try blob(index))
        }
    }

    /// Whether column `index` is NULL.
    func isNull(_ index: Int32) throws(StorageError) -> Bool {
        try checked(index).type == SQLITE_NULL
    }

    /// An INTEGER column.
    func integer(_ index: Int32) throws(StorageError) -> Int64 {
        let (column, type) = try checked(index)
        guard type == SQLITE_INTEGER else {
            throw StorageError(.invalidRecord, "column \(column) is not an integer")
        }
        return sqlite3_column_int64(handle, column)
    }

    /// A REAL column.
    func real(_ index: Int32) throws(StorageError) -> Double {
        let (column, type) = try checked(index)
        guard type == SQLITE_FLOAT else {
            throw StorageError(.invalidRecord, "column \(column) is not a real")
        }
        return sqlite3_column_double(handle, column)
    }

    /// A TEXT column.
    func text(_ index: Int32) throws(StorageError) -> String {
        let (column, type) = try checked(index)
        guard type == SQLITE_TEXT else {
            throw StorageError(.invalidRecord, "column \(column) is not text")
        }
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let pointer = sqlite3_column_text(handle, column) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// A BLOB column.
    func blob(_ index: Int32) throws(StorageError) -> [UInt8] {
        let (column, type) = try checked(index)
        guard type == SQLITE_BLOB else {
            throw StorageError(.invalidRecord, "column \(column) is not a blob")
        }
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let pointer = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }
}
