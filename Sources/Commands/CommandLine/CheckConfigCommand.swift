import Configuration
import Service

/// `passkeyd check-config`: loads the configuration exactly as `serve` does (the same one-line message and status 2
/// on a bad one) and nothing more: no data directory, database, listener or recording directory is touched
/// (README, check-config). A configuration that loads is reported valid, after its warnings.
package struct CheckConfigCommand: Command, Equatable {
    package static let words = ["check-config"]
    package static let flags: [any Flag] = [ConfigurationOptions.config]
    package static let summary = """
        Validate the configuration (file and PASSKEYD_… variables) as serve reads it, without starting:
        no listener, no database opened, nothing written. Exits 0 if it is valid (after any warnings,
        on standard error), 2 with serve's one-line message if not.
        """

    package var configuration: ConfigurationOptions

    package init(configuration: ConfigurationOptions = ConfigurationOptions()) {
        self.configuration = configuration
    }

    package init(_ arguments: ParsedArguments) {
        self.init(configuration: ConfigurationOptions(arguments))
    }

    package func run(_ context: CommandContext) async throws(CommandFailure) -> Int32 {
        let report = Self.report(
            try configuration.load(context.environment), file: configuration.file(context.environment))
        report.warnings.forEach(context.errorOutput)
        context.output(report.valid)
        return 0
    }

    /// What check-config prints for a configuration that loaded from `file`: each warning (standard error), then the
    /// line saying it is valid (standard output). The status is 0: a warning does not stop `serve`.
    package static func report(_ configuration: ServerConfiguration, file: String) -> (
        warnings: [String], valid: String
    ) {
        (configuration.warnings.map { "passkeyd: warning: \($0)" }, "passkeyd: configuration \(file) is valid")
    }
}
