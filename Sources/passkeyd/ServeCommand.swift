import Commands
import Service

/// `passkeyd serve`: loads the configuration, then runs the server (`PasskeydServer.run`) until SIGTERM or SIGINT.
/// It lives in the executable because it starts HTTP; every other command lives in `Commands`.
package struct ServeCommand: Command, Equatable {
    package static let words = ["serve"]
    package static let flags = ConfigurationOptions.serveFlags
    package static let summary = """
        Run the server. The configuration is read from FILE (default: $PASSKEYD_CONFIG or
        Config/passkeyd.json); PASSKEYD_… environment variables override it, flags override both.
        --record DIR: record mode, every WebAuthn ceremony judged is written to DIR (docs/recording.md).
        """

    package var configuration: ConfigurationOptions

    package init(configuration: ConfigurationOptions = ConfigurationOptions()) {
        self.configuration = configuration
    }

    package init(_ arguments: ParsedArguments) {
        self.init(configuration: ConfigurationOptions(arguments))
    }

    package func run(_ context: CommandContext) async throws(CommandFailure) -> Int32 {
        let configuration = try configuration.load(context.environment)
        return await PasskeydServer.run(configuration: configuration, logger: Logger(minimum: configuration.logLevel))
    }
}

extension CommandRegistry {
    /// The commands of the `passkeyd` binary.
    package static let passkeyd = CommandRegistry(serve: ServeCommand.self)
}
