import Service
import Storage
import StoragePostgres
import StorageSQLite

/// The store's own counters in the Prometheus text format, appended to `/metrics`.
/// - SQLite: how the WAL is copied into the database file (`SQLiteCheckpointStatistics`). A rising
///   `writer_fallback` means the background copy is not keeping up and writes are stalling behind the writer's own
///   copies.
/// - PostgreSQL: this node's pool and connections, the transactions run again and why, and the COMMITs whose
///   connection broke (`PostgresStatistics`). A pool always in use with transactions waiting wants a larger
///   `database.pool_size` (or a faster database); rising `connections_opened` means connections are being lost.
package enum StoreMetrics {
    package static func render(_ store: any Store) -> String {
        if let sqlite = store as? SQLiteStore { return render(sqlite.checkpointStatistics) }
        if let postgres = store as? PostgresStore { return render(postgres.statistics) }
        return ""
    }

    /// One metric family in the text format: its HELP and TYPE lines, then a sample per label set.
    private static func family(
        _ name: String, _ type: String, _ help: String, _ samples: [(labels: String, value: String)]
    ) -> String {
        var out = "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
        for sample in samples { out += "\(name)\(sample.labels) \(sample.value)\n" }
        return out
    }

    private static func render(_ statistics: SQLiteCheckpointStatistics) -> String {
        family(
            "passkeyd_sqlite_wal_checkpoints_total", "counter", "WAL checkpoints since start, by who ran them.",
            [
                ("{kind=\"background\"}", "\(statistics.background)"),
                ("{kind=\"writer_tail\"}", "\(statistics.writerTail)"),
                ("{kind=\"writer_fallback\"}", "\(statistics.writerFallback)"),
                ("{kind=\"background_failed\"}", "\(statistics.failures)"),
            ])
    }

    private static func render(_ statistics: PostgresStatistics) -> String {
        var out = ""
        func family(_ name: String, _ type: String, _ help: String, _ samples: [(labels: String, value: String)]) {
            out += Self.family("passkeyd_postgres_\(name)", type, help, samples)
        }
        family(
            "pool_connections", "gauge", "Connections of this node's pool (database.pool_size), by state.",
            [
                ("{state=\"in_use\"}", "\(statistics.inUse)"),
                ("{state=\"idle\"}", "\(statistics.poolSize - statistics.inUse)"),
            ])
        family(
            "pool_waiting", "gauge", "Transactions waiting for a connection of the pool now.",
            [("", "\(statistics.waiting)")])
        family(
            "pool_waits_total", "counter", "Transactions that had to wait for a connection.",
            [("", "\(statistics.waits)")])
        family(
            "pool_wait_seconds_total", "counter", "Time transactions spent waiting for a connection.",
            [("", "\(statistics.waitSeconds)")])
        family(
            "connections_opened_total", "counter", "Connections opened: each slot's first, and each after a loss.",
            [("", "\(statistics.connectionsOpened)")])
        family(
            "connect_failures_total", "counter", "Connection attempts that failed.",
            [("", "\(statistics.connectFailures)")])
        family(
            "transaction_retries_total", "counter", "Transactions run again, by reason.",
            [
                ("{reason=\"connection_lost\"}", "\(statistics.retriesConnectionLost)"),
                ("{reason=\"serialization\"}", "\(statistics.retriesSerialization)"),
                ("{reason=\"stale_statement\"}", "\(statistics.retriesStaleStatement)"),
            ])
        family(
            "commits_in_doubt_total", "counter",
            "COMMITs whose connection broke, by what the database then said of them.",
            [
                ("{outcome=\"committed\"}", "\(statistics.commitsFoundCommitted)"),
                ("{outcome=\"rolled_back\"}", "\(statistics.commitsFoundRolledBack)"),
                ("{outcome=\"unknown\"}", "\(statistics.commitsUnknown)"),
            ])
        return out
    }
}
