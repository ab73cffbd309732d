import Storage
import StorageSQLite

/// The store's own counters in the Prometheus text format, appended to `/metrics`: for SQLite, how the WAL is
/// copied into the database file (`SQLiteCheckpointStatistics`). A rising `writer_fallback` means the background
/// copy is not keeping up and writes are stalling behind the writer's own copies.
enum StoreMetrics {
    static func render(_ store: any Store) -> String {
        guard let sqlite = store as? SQLiteStore else { return "" }
        let statistics = sqlite.checkpointStatistics
        var out = "# HELP passkeyd_sqlite_wal_checkpoints_total WAL checkpoints since start, by who ran them.\n"
        out += "# TYPE passkeyd_sqlite_wal_checkpoints_total counter\n"
        for (kind, value) in [
            ("background", statistics.background), ("writer_tail", statistics.writerTail),
            ("writer_fallback", statistics.writerFallback), ("background_failed", statistics.failures),
        ] {
            out += "passkeyd_sqlite_wal_checkpoints_total{kind=\"\(kind)\"} \(value)\n"
        }
        return out
    }
}
