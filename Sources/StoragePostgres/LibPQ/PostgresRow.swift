import Foundation
import Storage
internal import CLibPQ

/// One row of a binary-format result, read column by column; valid only inside the decode closure that receives
/// it (the result is cleared afterwards). Every read checks the column's type OID and length, so a schema that
/// does not match the decoder is an `.invalidRecord`, never a misread.
struct PostgresRow {
    fileprivate let result: OpaquePointer
    fileprivate let row: Int32
    /// Added to every column index: a joined row's second record starts after the first one's columns.
    fileprivate let offset: Int32

    init(result: OpaquePointer, row: Int32) {
        self.result = result
        self.row = row
        offset = 0
    }

    private init(result: OpaquePointer, row: Int32, offset: Int32) {
        self.result = result
        self.row = row
        self.offset = offset
    }

    /// The same row read from column `columns` on, so that a record's decoder (which counts from 0) reads a
    /// record that a join put after other columns.
    func skipping(_ columns: Int32) -> PostgresRow {
        PostgresRow(result: result, row: row, offset: offset + columns)
    }

    func isNull(_ column: Int32) throws(StorageError) -> Bool {
        guard column + offset < PQnfields(result) else {
            throw StorageError(.internalFailure, "result has no column \(column + offset)")
        }
        return PQgetisnull(result, row, column + offset) != 0
    }

    /// The raw bytes of a non-NULL column of type `oid`.
    private func bytes(_ column: Int32, oid: UInt32, name: String) throws(StorageError) -> UnsafeRawBufferPointer {
        guard try !isNull(column) else { throw StorageError(.invalidRecord, "column \(column + offset) is NULL") }
        let field = column + offset
        let actual = PQftype(result, field)
        guard actual == oid else {
            throw StorageError(.invalidRecord, "column \(field) has type OID \(actual), expected \(name)")
        }
        let length = Int(PQgetlength(result, row, field))
        guard let start = PQgetvalue(result, row, field) else {
            throw StorageError(.internalFailure, "PQgetvalue returned NULL for column \(field)")
        }
        return UnsafeRawBufferPointer(start: start, count: length)
    }

    private func fixed<T: FixedWidthInteger>(_ column: Int32, oid: UInt32, name: String, as type: T.Type)
        throws(StorageError) -> T
    {
        let raw = try bytes(column, oid: oid, name: name)
        guard raw.count == MemoryLayout<T>.size else {
            throw StorageError(.invalidRecord, "column \(column) holds \(raw.count) bytes, expected \(name)")
        }
        var value: T = 0
        withUnsafeMutableBytes(of: &value) { $0.copyMemory(from: raw) }
        return T(bigEndian: value)
    }

    func text(_ column: Int32) throws(StorageError) -> String {
        String(decoding: try bytes(column, oid: PostgresValue.TypeOID.text, name: "text"), as: UTF8.self)
    }

    func bytea(_ column: Int32) throws(StorageError) -> [UInt8] {
        Array(try bytes(column, oid: PostgresValue.TypeOID.bytea, name: "bytea"))
    }

    func integer(_ column: Int32) throws(StorageError) -> Int64 {
        try fixed(column, oid: PostgresValue.TypeOID.int8, name: "int8", as: Int64.self)
    }

    func double(_ column: Int32) throws(StorageError) -> Double {
        Double(bitPattern: try fixed(column, oid: PostgresValue.TypeOID.float8, name: "float8", as: UInt64.self))
    }

    func bool(_ column: Int32) throws(StorageError) -> Bool {
        try fixed(column, oid: PostgresValue.TypeOID.bool, name: "bool", as: UInt8.self) != 0
    }

    /// Column `column` as a `StoredValue`, whatever its type among those passkeyd's schema uses (copying a table
    /// without decoding its records): booleans come back as the 0 and 1 the SQLite schema stores.
    func stored(_ column: Int32) throws(StorageError) -> StoredValue {
        if try isNull(column) { return .null }
        switch PQftype(result, column + offset) {
        case PostgresValue.TypeOID.bool: return .integer(try bool(column) ? 1 : 0)
        case PostgresValue.TypeOID.int8: return .integer(try integer(column))
        case PostgresValue.TypeOID.int4:
            return .integer(Int64(try fixed(column, oid: PostgresValue.TypeOID.int4, name: "int4", as: Int32.self)))
        case PostgresValue.TypeOID.float8: return .real(try double(column))
        case PostgresValue.TypeOID.text: return .text(try text(column))
        case PostgresValue.TypeOID.bytea: return .bytes(try bytea(column))
        case let other: throw StorageError(.invalidRecord, "column \(column + offset) has type OID \(other)")
        }
    }

    // MARK: record fields

    func date(_ column: Int32) throws(StorageError) -> Date {
        Date(timeIntervalSinceReferenceDate: try double(column))
    }

}

/// The optional and enumerated reads come with `RecordRow`; the records' column lists and decoders with
/// `RecordDecoding`, shared with the SQLite driver.
extension PostgresRow: RecordRow {
    func bytes(_ column: Int32) throws(StorageError) -> [UInt8] { try bytea(column) }
}

extension PostgresTransaction: RecordDecoding {
    typealias Row = PostgresRow
}
