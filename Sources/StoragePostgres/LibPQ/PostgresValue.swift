import Foundation
import Storage

/// A parameter of a prepared statement, sent in PostgreSQL's binary format.
///
/// Binary rather than text: byte strings (credential ids, hashes, keys) go as they are instead of hex-escaped,
/// doubles round-trip exactly (times are seconds since 2001 as in the SQLite schema, so a `Date` comes back
/// equal), and nothing is formatted or parsed on either side. Each value says its type OID, so the statement is
/// prepared with exact parameter types.
enum PostgresValue {
    case text(String)
    case bytea([UInt8])
    case int8(Int64)
    case float8(Double)
    case bool(Bool)
    /// NULL of the type with this OID (typed, so a statement first prepared with a NULL there gets the type the
    /// column has, also where the server could not infer it, as in `INSERT … SELECT $1`).
    case null(UInt32)

    /// `pg_type` OIDs of the built-in types used (stable across PostgreSQL versions).
    enum TypeOID {
        static let bool: UInt32 = 16
        static let bytea: UInt32 = 17
        static let int8: UInt32 = 20
        static let int4: UInt32 = 23
        static let text: UInt32 = 25
        static let float8: UInt32 = 701
    }

    var typeOID: UInt32 {
        switch self {
        case .text: TypeOID.text
        case .bytea: TypeOID.bytea
        case .int8: TypeOID.int8
        case .float8: TypeOID.float8
        case .bool: TypeOID.bool
        case .null(let oid): oid
        }
    }

    /// The binary wire form (network byte order), or nil for NULL.
    var binary: [UInt8]? {
        switch self {
        case .text(let string): Array(string.utf8)
        case .bytea(let bytes): bytes
        case .int8(let value): withUnsafeBytes(of: value.bigEndian, Array.init)
        case .float8(let value): withUnsafeBytes(of: value.bitPattern.bigEndian, Array.init)
        case .bool(let value): [value ? 1 : 0]
        case .null: nil
        }
    }

    // MARK: record fields

    /// Times are `double precision` seconds since 2001-01-01 UTC (`timeIntervalSinceReferenceDate`), as in the
    /// SQLite schema: exact for a `Date`, where `timestamptz` would round to microseconds.
    static func date(_ date: Date) -> PostgresValue { .float8(date.timeIntervalSinceReferenceDate) }
    static func optionalDate(_ date: Date?) -> PostgresValue { date.map(PostgresValue.date) ?? .null(TypeOID.float8) }
    static func optionalText(_ text: String?) -> PostgresValue { text.map(PostgresValue.text) ?? .null(TypeOID.text) }
    static func optionalBytea(_ bytes: [UInt8]?) -> PostgresValue {
        bytes.map(PostgresValue.bytea) ?? .null(TypeOID.bytea)
    }
    static func optionalInteger(_ value: Int?) -> PostgresValue {
        value.map { .int8(Int64($0)) } ?? .null(TypeOID.int8)
    }
    static func integer(_ value: Int) -> PostgresValue { .int8(Int64(value)) }
}
