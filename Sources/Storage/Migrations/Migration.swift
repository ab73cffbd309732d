/// One step of a driver's schema, as data: applied once, in version order, recorded in `schema_migrations`.
public struct Migration: Sendable, Hashable {
    /// The schema version this step produces (1, 2, …; strictly increasing in a list).
    public let version: Int
    /// A short name, recorded beside the version so a renamed or reordered list is detected.
    public let name: String
    /// The statements of the step, run in order inside the migration transaction.
    public let statements: [String]

    /// Creates a migration step.
    public init(version: Int, name: String, statements: [String]) {
        self.version = version
        self.name = name
        self.statements = statements
    }
}
