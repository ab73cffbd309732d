/// An order-independent checksum of a table's rows: their count and the wrapping sum of their hash values. A copy
/// computes it over the rows it read from the source and over the rows the target gives back, in one process
/// (Swift's `Hasher` is seeded per process), and refuses to commit when the two differ: a value that changed on
/// the way (a type conversion, a truncation) fails the copy instead of landing.
public struct TableChecksum: Sendable, Hashable {
    public private(set) var rows = 0
    private var sum: UInt64 = 0

    public init() {}

    public mutating func add(_ row: [StoredValue]) {
        rows += 1
        sum &+= UInt64(bitPattern: Int64(row.hashValue))
    }
}
