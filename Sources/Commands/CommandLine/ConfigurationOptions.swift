import Configuration
import Service

/// The configuration a command reads, as `serve` reads it: the file `--config FILE` names (default
/// `$PASSKEYD_CONFIG`, else `Config/passkeyd.json`), then the `PASSKEYD_…` variables, then the flags, which override
/// both.
package struct ConfigurationOptions: Sendable, Equatable {
    /// `--config FILE`.
    package static let config = Option<String>("--config", "FILE")
    /// `--host HOST`: `listen.host`.
    package static let host = Option<String>("--host", "HOST")
    /// `--port N`: `listen.port`.
    package static let port = Option<Int>("--port", "N", range: 0...65535)
    /// `--data-dir DIR`: `data_directory`.
    package static let dataDirectory = Option<String>("--data-dir", "DIR")
    /// `--record DIR` (serve only): record mode into DIR (`recording.directory`).
    package static let record = Option<String>.nonEmpty("--record", "DIR", requirement: "needs a directory")

    /// The flags of `serve`.
    package static let serveFlags: [any Flag] = [config, host, port, dataDirectory, record]
    /// The flags of the commands that open the configured store or keys. They take `--host` and `--port` as `serve`
    /// does (a bad port is refused), but start no listener, so their usage leaves them out.
    package static let flags: [any Flag] = [config, host.hidden, port.hidden, dataDirectory]

    /// The file `--config` names; `nil` for the default.
    package var path: String?
    /// What the flags override.
    package var overrides: ConfigurationLoader.Flags

    package init(path: String? = nil, overrides: ConfigurationLoader.Flags = ConfigurationLoader.Flags()) {
        self.path = path
        self.overrides = overrides
    }

    /// The options given in `arguments` (those the command does not declare are never given).
    package init(_ arguments: ParsedArguments) {
        self.init(
            path: arguments[Self.config],
            overrides: ConfigurationLoader.Flags(
                port: arguments[Self.port], host: arguments[Self.host], dataDirectory: arguments[Self.dataDirectory],
                recordDirectory: arguments[Self.record]))
    }

    /// The file read: `--config`'s, else `$PASSKEYD_CONFIG`, else the default.
    package func file(_ environment: [String: String]) -> String {
        ConfigurationLoader.file(path, environment: environment)
    }

    /// Loads and validates the configuration, with the database driver's check of `database.url`; a bad one is the
    /// one-line message `serve` prints, with status 2.
    package func load(_ environment: [String: String]) throws(CommandFailure) -> ServerConfiguration {
        do {
            return try ConfigurationLoader.load(
                path: path, environment: environment, flags: overrides, checkDatabaseURL: DatabaseDrivers.checkURL)
        } catch {
            throw CommandFailure("\(error)", status: 2)
        }
    }
}
