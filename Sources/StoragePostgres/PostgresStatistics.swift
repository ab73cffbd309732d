import Foundation

/// What a node's PostgreSQL store has been doing, for `/metrics`: its pool (how many connections are leased, how
/// often and how long transactions waited for one), its connections (opened again after a loss, refused), the
/// transactions run again and why, and the COMMITs whose connection broke, by what the database said of them.
/// Counts are since the store opened.
public struct PostgresStatistics: Sendable, Equatable {
    /// `database.pool_size`.
    public var poolSize: Int
    /// Connections leased to a transaction now.
    public var inUse: Int
    /// Transactions waiting for a connection now.
    public var waiting: Int
    /// Transactions that had to wait for a connection.
    public var waits: Int
    /// Their waits, summed.
    public var waitSeconds: Double
    /// Connections opened (the first of each slot, and each after a loss).
    public var connectionsOpened: Int
    /// Connection attempts refused or failed.
    public var connectFailures: Int
    /// Transactions run again: the connection was found dead before anything ran.
    public var retriesConnectionLost: Int
    /// Transactions run again after a serialization failure or deadlock (40001, 40P01).
    public var retriesSerialization: Int
    /// Transactions run again after another node's migration invalidated a prepared statement (0A000).
    public var retriesStaleStatement: Int
    /// COMMITs whose connection broke, then found committed (answered as if nothing happened).
    public var commitsFoundCommitted: Int
    /// … found rolled back (503, nothing written).
    public var commitsFoundRolledBack: Int
    /// … whose outcome stayed unknown (500 "outcome unknown").
    public var commitsUnknown: Int
}
