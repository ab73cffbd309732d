import Foundation

/// One result row of a SQL driver, read by column index: the primitives each driver implements for its engine's
/// types, and the optional and enumerated reads built on them once for every driver.
package protocol RecordRow {
    /// Whether the column is SQL NULL.
    func isNull(_ column: Int32) throws(StorageError) -> Bool
    /// A text column.
    func text(_ column: Int32) throws(StorageError) -> String
    /// A byte-string column.
    func bytes(_ column: Int32) throws(StorageError) -> [UInt8]
    /// An integer column.
    func integer(_ column: Int32) throws(StorageError) -> Int64
    /// A boolean column.
    func bool(_ column: Int32) throws(StorageError) -> Bool
    /// A time column (seconds since 2001 in both schemas, so a `Date` round-trips exactly).
    func date(_ column: Int32) throws(StorageError) -> Date
}

extension RecordRow {
    package func optionalText(_ column: Int32) throws(StorageError) -> String? {
        try isNull(column) ? nil : try text(column)
    }

    package func optionalBytes(_ column: Int32) throws(StorageError) -> [UInt8]? {
        try isNull(column) ? nil : try bytes(column)
    }

    package func optionalInt(_ column: Int32) throws(StorageError) -> Int? {
        try isNull(column) ? nil : Int(try integer(column))
    }

    package func optionalDate(_ column: Int32) throws(StorageError) -> Date? {
        try isNull(column) ? nil : try date(column)
    }

    /// A text column holding one of `T`'s raw values.
    package func enumeration<T: RawRepresentable>(_ column: Int32, as type: T.Type) throws(StorageError) -> T
    where T.RawValue == String {
        let raw = try text(column)
        guard let value = T(rawValue: raw) else {
            throw StorageError(.invalidRecord, "column \(column) holds unknown \(T.self) \"\(raw)\"")
        }
        return value
    }
}
