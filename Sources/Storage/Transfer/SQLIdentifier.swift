/// An SQL identifier in double quotes, as both SQLite and PostgreSQL read it (a `"` in it doubled). For table and
/// column names read from a database's own catalog, never from input.
package enum SQLIdentifier {
    package static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
