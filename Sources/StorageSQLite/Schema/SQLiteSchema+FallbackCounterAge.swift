import Storage

extension SQLiteSchema {
    /// v13: the age of the password fallback's counters, so that housekeeping finds those no rule reads any more
    /// (`StoreWriter.purgeFallbackCounters`) without reading them all.
    static let fallbackCounterAge = Migration(
        version: 13, name: "fallback_counter_age",
        statements: ["CREATE INDEX fallback_counters_age ON fallback_counters (last_at)"])
}
