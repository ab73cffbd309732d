import Foundation

/// The `PASSKEYD_…` environment variables: one per setting of the table (`Settings.all`), named after its path
/// (`relying_party.id` → `PASSKEYD_RELYING_PARTY_ID`). Lists and objects (`web_origins`, `clients`, `realms`)
/// take JSON text. An unknown `PASSKEYD_` variable stops the start, naming the nearest known one, so a typo is never
/// silently ignored.
public enum EnvironmentOverrides {
    /// Variables that are not settings but are still ours.
    /// (`PASSKEYD_TEST_DATABASE_URL` is the test suite's PostgreSQL, exported by `make test` around the daemons it
    /// starts; the server ignores it.)
    package static let otherVariables: Set<String> = [
        "PASSKEYD_CONFIG", "PASSKEYD_TEST_DATABASE_URL",
    ]

    /// The names of every variable, for the README and `--help`.
    public static var variableNames: [String] { Settings.all.map(\.variable) }

    package static func apply(_ environment: [String: String], to document: inout [String: Any])
        throws(ConfigurationError)
    {
        for (name, text) in environment.sorted(by: { $0.key < $1.key }) where name.hasPrefix("PASSKEYD_") {
            if otherVariables.contains(name) { continue }
            guard let setting = Settings.setting(variable: name) else {
                let known = variableNames + otherVariables
                throw ConfigurationError(
                    field: name, reason: NearestName.unknown(suggestion: NearestName.nearest(to: name, among: known)))
            }
            set(&document, path: setting.path, value: try parse(text, form: setting.form, variable: name))
        }
    }

    private static func parse(_ text: String, form: SettingDescriptor.Form, variable: String)
        throws(ConfigurationError) -> Any
    {
        switch form {
        case .text:
            return text
        case .integer:
            guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
                throw ConfigurationError(field: variable, reason: "must be an integer, got \"\(text)\"")
            }
            return value
        case .boolean:
            switch text.lowercased() {
            case "true", "1", "yes": return true
            case "false", "0", "no": return false
            default: throw ConfigurationError(field: variable, reason: "must be true or false, got \"\(text)\"")
            }
        case .json:
            // The parser's error already names the variable and says what is wrong with the text.
            return try ConfigJSON.parse(Array(text.utf8), field: variable)
        }
    }

    /// Sets `value` at `path`, creating intermediate objects.
    package static func set(_ document: inout [String: Any], path: [String], value: Any) {
        guard let head = path.first else { return }
        if path.count == 1 {
            document[head] = value
            return
        }
        var child = document[head] as? [String: Any] ?? [:]
        set(&child, path: Array(path.dropFirst()), value: value)
        document[head] = child
    }
}
