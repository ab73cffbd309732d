import Storage

extension SQLiteSchema {
    /// v15: nothing. PostgreSQL's v15 adds its commit markers (a COMMIT whose answer a crash or a failover cut is
    /// decided by them); a SQLite COMMIT runs in the process and is never in doubt. The step exists because both
    /// drivers share their schema versions (`passkeyd database copy` requires the same one on both sides).
    static let commitMarkers = Migration(version: 15, name: "commit_markers", statements: [])
}
