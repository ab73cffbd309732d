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

/// Typed column reads on top of the bounds-checked primitives.
extension SQLiteStatement {
    func date(_ index: Int32) throws(StorageError) -> Date {
        Date(timeIntervalSinceReferenceDate: try real(index))
    }

    func optionalDate(_ index: Int32) throws(StorageError) -> Date? {
        try isNull(index) ? nil : try date(index)
    }

    func optionalText(_ index: Int32) throws(StorageError) -> String? {
        try isNull(index) ? nil : try text(index)
    }

    func optionalBlob(_ index: Int32) throws(StorageError) -> [UInt8]? {
        try isNull(index) ? nil : try blob(index)
    }

    func optionalInt(_ index: Int32) throws(StorageError) -> Int? {
        try isNull(index) ? nil : Int(try integer(index))
    }

    func bool(_ index: Int32) throws(StorageError) -> Bool {
        switch try integer(index) {
        case 0: false
        case 1: true
        case let other: throw StorageError(.invalidRecord, "column \(index) holds \(other), not a boolean")
        }
    }

    /// A TEXT column holding one of `T`'s raw values.
    func enumeration<T: RawRepresentable>(_ index: Int32, as type: T.Type) throws(StorageError) -> T
    where T.RawValue == String {
        let raw = try text(index)
        guard let value = T(rawValue: raw) else {
            throw StorageError(.invalidRecord, "column \(index) holds unknown \(T.self) \"\(raw)\"")
        }
        return value
    }
}
