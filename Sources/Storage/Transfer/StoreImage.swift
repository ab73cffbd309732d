/// A store's durable contents, table by table, in a form both drivers read and write: what
/// `passkeyd database copy` moves from the SQLite database of one node to a PostgreSQL database that several
/// nodes share.
///
/// Rows travel as they are stored: sealed secrets stay sealed (the same key-encryption key opens them on the
/// target), refresh tokens stay hashes, the audit log's leaves, node hashes and signed checkpoints stay
/// byte-for-byte, so checkpoints signed before the copy verify after it. What a driver keeps in a shape of its own
/// (where the audit queue stands, the last event seq ever given) travels as `StoreImageMarks`.
public enum StoredValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case bytes([UInt8])
}

/// One table of an image: its name and its columns, in the order every row of it lists its values.
public struct TableShape: Sendable, Hashable {
    public let name: String
    public let columns: [String]

    public init(name: String, columns: [String]) {
        self.name = name
        self.columns = columns
    }
}

/// What each driver keeps in a shape of its own, said the same way for both.
public struct StoreImageMarks: Sendable, Hashable {
    /// The audit log holds every security event up to this seq; the events after it are queued for it.
    public var auditedThrough: Int64
    /// The highest security-event seq ever given (a seq is never given twice, even after the newest events went).
    public var lastEventSeq: Int64

    public init(auditedThrough: Int64, lastEventSeq: Int64) {
        self.auditedThrough = auditedThrough
        self.lastEventSeq = lastEventSeq
    }
}

/// A store read as an image, inside one snapshot. Synchronous and confined to the thread that made it (a driver's
/// connection is).
package protocol StoreImageSource {
    /// The schema version the source is at (`schema_migrations`): the target must be at the same one.
    var schemaVersion: Int { get }
    /// Every table that holds data, with its columns; the drivers' bookkeeping (`schema_migrations`, the readiness
    /// heartbeat, and what `marks` stands for) left out.
    func tables() throws(StorageError) -> [TableShape]
    /// Every row of `table`, in batches of at most `batchSize` rows, each row's values in `table.columns` order.
    func rows(of table: TableShape, batchSize: Int, _ body: ([[StoredValue]]) throws(StorageError) -> Void)
        throws(StorageError)
    /// The driver-specific positions, in the image's terms.
    func marks() throws(StorageError) -> StoreImageMarks
}

/// What a copy moved: rows per table, and the marks it set.
public struct StoreImageReport: Sendable, Hashable {
    /// Rows per table, by table name.
    public var rows: [String: Int]
    /// The marks the target was given.
    public var marks: StoreImageMarks

    public init(rows: [String: Int], marks: StoreImageMarks) {
        self.rows = rows
        self.marks = marks
    }

    /// Rows in all.
    public var totalRows: Int { rows.values.reduce(0, +) }
}
