/// Which database a `database.url` names, by its form alone (one home for the rule: the configuration and the drivers
/// read it here): `sqlite:FILE`, or a PostgreSQL connection string — a `postgres://` or `postgresql://` URL, or libpq
/// keyword/value pairs (`host=… dbname=…`). Whether a PostgreSQL string is well-formed is the PostgreSQL driver's to
/// say (`PostgresConfiguration`).
public enum DatabaseLocation: Sendable, Hashable {
    /// `sqlite:FILE`: the file as written (relative to the data directory unless absolute).
    case sqlite(file: String)
    /// A PostgreSQL connection string, as written.
    case postgres(connectionString: String)

    /// The location `url` names; nil for anything else (`mysql://…`, `sqlite:` without a file, an empty string).
    public init?(url: String) {
        let lowered = url.lowercased()
        if lowered.hasPrefix("sqlite:") {
            let file = String(url.dropFirst("sqlite:".count))
            guard !file.isEmpty else { return nil }
            self = .sqlite(file: file)
        } else if lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://") || lowered.contains("=") {
            self = .postgres(connectionString: url)
        } else {
            return nil
        }
    }
}
