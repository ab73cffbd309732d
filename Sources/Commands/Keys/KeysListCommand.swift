import Configuration
import Service

/// `passkeyd keys list`: every token-signing key in the configured database, what it does now and how it is kept at
/// rest. Read-only; safe beside running servers.
package struct KeysListCommand: Command, Equatable {
    /// `--json`: JSON for scripts.
    static let json = Switch("--json")

    package static let words = ["keys", "list"]
    package static let flags: [any Flag] = [json] + ConfigurationOptions.flags
    package static let summary = """
        List the token-signing keys: kid, algorithm, state (signing, pending, retired, published,
        expired) and whether each is encrypted at rest, under which key-encryption key.
        """

    package var configuration: ConfigurationOptions
    package var json: Bool

    package init(configuration: ConfigurationOptions = ConfigurationOptions(), json: Bool = false) {
        self.configuration = configuration
        self.json = json
    }

    package init(_ arguments: ParsedArguments) {
        self.init(configuration: ConfigurationOptions(arguments), json: arguments[Self.json])
    }

    package func run(_ context: CommandContext) async throws(CommandFailure) -> Int32 {
        let configuration = try configuration.load(context.environment)
        do {
            context.output(SigningKeyStatus.listing(try await Self.statuses(configuration: configuration), json: json))
        } catch {
            throw CommandFailure("keys list failed: \(error)")
        }
        return 0
    }

    /// The keys of the configured database and their states at `clock`'s now.
    package static func statuses(configuration: ServerConfiguration, clock: any WallClock = SystemClock())
        async throws -> [SigningKeyStatus]
    {
        try await DatabaseDrivers.withStore(configuration) { store in
            try await TokenService(configuration: configuration, store: store, clock: clock).keyStatuses(
                now: clock.now())
        }
    }
}
