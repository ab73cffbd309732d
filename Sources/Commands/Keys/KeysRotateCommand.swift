import Configuration
import Foundation
import Service

/// `passkeyd keys rotate`: adds a new token-signing key of each algorithm (ES256, RS256) to the database.
/// Running servers publish it within `TokenService.onDemandReloadInterval` (their JWKS reads the keys again), and it
/// signs from `TokenService.keyPublicationDelay` later (at once with `--now`: a compromised key); the older keys stay
/// published until every token they signed has expired. Like every operator command it runs beside a running server
/// (`DatabaseDrivers.withStore`).
package struct KeysRotateCommand: Command, Equatable {
    /// `--now`: the new key signs at once instead of after every node has published it.
    static let now = Switch("--now")

    package static let words = ["keys", "rotate"]
    package static let flags: [any Flag] = [now] + ConfigurationOptions.flags
    package static let summary = """
        Add a new token-signing key; it signs from then on, older keys stay published until their
        tokens have expired.
        """

    package var configuration: ConfigurationOptions
    package var immediately: Bool

    package init(configuration: ConfigurationOptions = ConfigurationOptions(), immediately: Bool = false) {
        self.configuration = configuration
        self.immediately = immediately
    }

    package init(_ arguments: ParsedArguments) {
        self.init(configuration: ConfigurationOptions(arguments), immediately: arguments[Self.now])
    }

    package func run(_ context: CommandContext) async throws(CommandFailure) -> Int32 {
        let configuration = try configuration.load(context.environment)
        do {
            let (kids, signsFrom) = try await Self.rotate(configuration: configuration, immediately: immediately)
            let when =
                immediately ? "now" : "\(ISO8601DateFormatter().string(from: signsFrom)), once every node publishes it"
            context.output(
                "new signing keys \(kids.joined(separator: ", ")) (ES256, RS256); they sign from \(when); older keys "
                    + "stay published until their tokens expire")
        } catch {
            throw CommandFailure("keys rotate failed: \(error)")
        }
        return 0
    }

    /// Adds the keys to the configured database; returns their `kid`s (ES256 first) and when they start signing.
    package static func rotate(
        configuration: ServerConfiguration, clock: any WallClock = SystemClock(), immediately: Bool = false
    ) async throws -> (kids: [String], signsFrom: Date) {
        // The new keys are sealed as the servers' are: a `keys rotate` without the key-encryption key a configuration
        // names fails here rather than store them unencrypted.
        let encryption = try SecretEncryptionKeys.configured(configuration).get()
        return try await DatabaseDrivers.withStore(configuration) { store in
            try await TokenService.rotateKeys(
                store: store, now: clock.now(), immediately: immediately, encryption: encryption)
        }
    }
}
