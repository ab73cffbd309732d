/// SQLite's `PRAGMA synchronous` level for the WAL journal: the durability trade-off of the embedded database. One
/// home for the setting: the configuration reads `database.synchronous` into it (by its raw value, `full` or
/// `normal`) and the SQLite driver opens its connections with it (`SQLiteConfiguration.synchronous`), with no mapping
/// in between.
public enum SQLiteSynchronous: String, Sendable, Hashable, CaseIterable {
    /// Every commit is fsynced before `write` returns: a committed transaction (a challenge consumed) survives power
    /// loss.
    case full
    /// The WAL is fsynced only at checkpoints: faster, but after a power loss (not a process crash) the last commits
    /// can be gone. In an auth server that can resurrect a consumed challenge, auth session or rotated refresh token,
    /// re-enabling a replay. Use only where that risk is accepted.
    case normal

    /// The pragma's value (`PRAGMA synchronous = FULL`).
    public var pragmaValue: String { rawValue.uppercased() }
}
