import Foundation

/// Builds the configuration from a JSON file, then `PASSKEYD_…` environment variables, then flags —
/// later sources win. Every setting of the file has an environment variable (see `EnvironmentOverrides`); both
/// come from the settings table (`Settings`). A loopback issuer on the file's own port follows a port given by the
/// environment or a flag (`LoopbackIssuer`).
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
        let file = Self.file(path, environment: environment)
        guard let data = FileManager.default.contents(atPath: file) else {
            throw ConfigurationError(field: file, reason: "cannot read the configuration file")
        }
        return try load(
            data: data, source: file, environment: environment, flags: flags, checkDatabaseURL: checkDatabaseURL)
    }

    /// The configuration file read: `path`, else `PASSKEYD_CONFIG`, else `Config/passkeyd.json`.
    public static func file(_ path: String?, environment: [String: String]) -> String {
        path ?? environment["PASSKEYD_CONFIG"] ?? defaultPath
    }

    /// Loads and validates a configuration held in memory; the PINs its `pin_env` settings name are taken from
    /// `environment` too, which no code reads after the load.
    public static func load(
        data: Data, source: String, environment: [String: String], flags: Flags = Flags(),
        checkDatabaseURL: ServerConfiguration.DatabaseURLCheck? = nil
    ) throws(ConfigurationError) -> ServerConfiguration {
        let parsed = try ConfigJSON.parse(Array(data), field: source)
        guard var document = parsed as? [String: Any] else {
            throw ConfigurationError(field: source, reason: "must hold a JSON object")
        }
        // Read before the environment and the flags change the document: the file's own issuer and port.
        let loopbackIssuer = LoopbackIssuer(file: document)
        try EnvironmentOverrides.apply(environment, to: &document)
        let flagged: [(SettingDescriptor, Any?)] = [
            (Settings.Listen.port.descriptor, flags.port), (Settings.Listen.host.descriptor, flags.host),
            (Settings.dataDirectory.descriptor, flags.dataDirectory),
            (Settings.Recording.directory.descriptor, flags.recordDirectory),
        ]
        for case (let setting, let value?) in flagged {
            EnvironmentOverrides.set(&document, path: setting.path, value: value)
        }
        loopbackIssuer?.follow(in: &document, environment: environment)
        var configuration = try ServerConfiguration(document: document, checkDatabaseURL: checkDatabaseURL)
        configuration.readPINs(from: environment)
        return configuration
    }
}
