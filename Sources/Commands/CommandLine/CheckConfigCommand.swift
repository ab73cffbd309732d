/// `passkeyd check-config`: loads the configuration exactly as `serve` does (the same one-line message and status 2
/// on a bad one) and nothing more: no data directory, database, listener or recording directory is touched
/// (README, check-config).
package struct CheckConfigCommand: Command, Equatable {
    package static let words = ["check-config"]
    package static let flags: [any Flag] = [ConfigurationOptions.config]
    package static let summary = """
        Validate the configuration (file and PASSKEYD_… variables) as serve reads it, without starting:
        no listener, no database opened, nothing written. Exits 0 if it is valid, 2 with serve's
        one-line message if not.
        """

    package var configuration: ConfigurationOptions

    package init(configuration: ConfigurationOptions = ConfigurationOptions()) {
        self.configuration = configuration
    }

    package init(_ arguments: ParsedArguments) {
        self.init(configuration: ConfigurationOptions(arguments))
    }

    package func run(_ context: CommandContext) async throws(CommandFailure) -> Int32 {
        _ = try configuration.load(context.environment)
        context.output("passkeyd: configuration \(configuration.file(context.environment)) is valid")
        return 0
    }
}
