import Storage

extension SQLiteSchema {
    /// STAND-IN, to be removed when merging: v14 belongs to the refresh-token grace period (another branch); it is
    /// here only because a migration list has no gaps (`MigrationPlan`), so that v15 can be built and tested alone.
    static let standIn14 = Migration(version: 14, name: "stand_in_14", statements: [])
}
