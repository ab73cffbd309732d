import Foundation

/// Builds the configuration from a JSON file, then `PASSKEYD_…` environment variables, then flags —
/// later sources win. Every setting of the file has an environment variable (see `EnvironmentOverrides`).
public enum ConfigurationLoader {
    /// The default configuration file, relative to the working directory.
    public static let defaultPath = "Config/passkeyd.json"

    /// Command-line flags that override the file and the environment.
    public struct Flags: Sendable, Equatable {
        public var port: Int?
        public var host: String?
        public var dataDirectory: String?
        /// `serve --record DIR`: record mode into DIR (`recording.directory`).
        public var recordDirectory: String?
        public init(
            port: Int? = nil, host: String? = nil, dataDirectory: String? = nil, recordDirectory: String? = nil
        ) {
            self.port = port
            self.host = host
            self.dataDirectory = dataDirectory
            self.recordDirectory = recordDirectory
        }
    }

    /// Loads and validates the configuration.
    /// - Parameters:
    ///   - path: the JSON file; `nil` uses `PASSKEYD_CONFIG` or `Config/passkeyd.json`.
    ///   - environment: the process environment (injected for tests).
    ///   - checkDatabaseURL: the database driver's check of `database.url` (`ServerConfiguration.DatabaseURLCheck`).
    public static func load(
        path: String?, environment: [String: String], flags: Flags = Flags(),
        checkDatabaseURL: ServerConfiguration.DatabaseURLCheck? = nil
    ) throws(ConfigurationError) -> ServerConfiguration {
        let file = path ?? environment["PASSKEYD_CONFIG"] ?? defaultPath
        guard let data = FileManager.default.contents(atPath: file) else {
            throw ConfigurationError(field: file, reason: "cannot read the configuration file")
        }
        return try load(
            data: data, source: file, environment: environment, flags: flags, checkDatabaseURL: checkDatabaseURL)
    }

    /// Loads and validates a configuration held in memory.
    public static func load(
        data: Data, source: String, environment: [String: String], flags: Flags = Flags(),
        checkDatabaseURL: ServerConfiguration.DatabaseURLCheck? = nil
    ) throws(ConfigurationError) -> ServerConfiguration {
        let parsed = try ConfigJSON.parse(Array(data), field: source)
        guard var document = parsed as? [String: Any] else {
            throw ConfigurationError(field: source, reason: "must hold a JSON object")
        }
        try EnvironmentOverrides.apply(environment, to: &document)
        if let port = flags.port { EnvironmentOverrides.set(&document, path: ["listen", "port"], value: port) }
        if let host = flags.host { EnvironmentOverrides.set(&document, path: ["listen", "host"], value: host) }
        if let dir = flags.dataDirectory { EnvironmentOverrides.set(&document, path: ["data_directory"], value: dir) }
        if let dir = flags.recordDirectory {
            EnvironmentOverrides.set(&document, path: ["recording", "directory"], value: dir)
        }
        return try ServerConfiguration(document: document, checkDatabaseURL: checkDatabaseURL)
    }
}
