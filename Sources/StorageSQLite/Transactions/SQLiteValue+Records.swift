import Foundation
import Storage

/// Conversions from record fields to bound values (times as REAL seconds since 2001, exact for `Date`).
extension SQLiteValue {
    static func date(_ date: Date) -> SQLiteValue { .real(date.timeIntervalSinceReferenceDate) }
    static func optionalDate(_ date: Date?) -> SQLiteValue { date.map(SQLiteValue.date) ?? .null }
    static func optionalText(_ text: String?) -> SQLiteValue { text.map(SQLiteValue.text) ?? .null }
    static func optionalBlob(_ bytes: [UInt8]?) -> SQLiteValue { bytes.map(SQLiteValue.blob) ?? .null }
    static func optionalInteger(_ value: Int?) -> SQLiteValue { value.map { .integer(Int64($0)) } ?? .null }
    static func bool(_ value: Bool) -> SQLiteValue { .integer(value ? 1 : 0) }
}

/// Typed column reads on top of the bounds-checked primitives; the optional and enumerated reads come with
/// `RecordRow`.
extension SQLiteStatement: RecordRow {
    func bytes(_ index: Int32) throws(StorageError) -> [UInt8] { try blob(index) }

    func date(_ index: Int32) throws(StorageError) -> Date {
        Date(timeIntervalSinceReferenceDate: try real(index))
    }

    func bool(_ index: Int32) throws(StorageError) -> Bool {
        switch try integer(index) {
        case 0: false
        case 1: true
        case let other: throw StorageError(.invalidRecord, "column \(index) holds \(other), not a boolean")
        }
    }
}

extension SQLiteTransaction: RecordDecoding {
    typealias Row = SQLiteStatement
}
