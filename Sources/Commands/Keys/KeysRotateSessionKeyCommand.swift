import Configuration
import Foundation
import Service

/// `passkeyd keys rotate-session-key`: rotates the server secret that seals the passkey ceremonies' `auth_session`
/// and the hosted page's transactions (`AuthSessionKeyRotation`): publishes a new one, waits
/// `AuthSessionKeyRotation.publicationDelay` for every running node to read it, then makes it the one that seals;
/// the old one still opens what it sealed. With `--now` (a secret believed compromised) the new one seals at once
/// and the old one opens nothing more: ceremonies begun under it start again. Runs beside a running server
/// (`DatabaseDrivers.withStore`).
package struct KeysRotateSessionKeyCommand: Command, Equatable {
    /// `--now`: no publication delay, and the old secret retired at once.
    static let now = Switch("--now")

    package static let words = ["keys", "rotate-session-key"]
    package static let flags: [any Flag] = [now] + ConfigurationOptions.flags
    package static let summary = """
        Rotate the secret that seals auth sessions and hosted-login transactions; --now retires the old one at
        once.
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
            try await Self.rotate(
                configuration: configuration, immediately: immediately,
                publicationDelay: AuthSessionKeyRotation.publicationDelay
            ) { delay in
                context.output(
                    "new session key published; it seals in \(delay.components.seconds) s, once every node has read it")
            }
            context.output(
                immediately
                    ? "the new session key seals now; the old one opens nothing more (ceremonies begun under it start "
                        + "again)"
                    : "the new session key seals now; the old one still opens what it sealed")
        } catch {
            throw CommandFailure("keys rotate-session-key failed: \(error)")
        }
        return 0
    }

    /// Publishes a new secret in the configured database, waits `publicationDelay` (not with `immediately`), then
    /// promotes it. `published` is told the wait before it starts.
    package static func rotate(
        configuration: ServerConfiguration, clock: any WallClock = SystemClock(), immediately: Bool,
        publicationDelay: Duration, published: @Sendable (Duration) -> Void = { _ in }
    ) async throws {
        // Sealed as the servers' secrets are: without the key-encryption key a configuration names this fails here
        // rather than store them unencrypted.
        let encryption = try SecretEncryptionKeys.configured(configuration).get()
        try await DatabaseDrivers.withStore(configuration) { store in
            // A database no server has started on yet has no current secret: make it first, as a start would.
            try await AuthSessionKey().load(store: store, keys: encryption)
            try await AuthSessionKeyRotation.publish(store: store, keys: encryption)
            if !immediately {
                published(publicationDelay)
                try await Task.sleep(for: publicationDelay)
            }
            try await AuthSessionKeyRotation.promote(
                store: store, keys: encryption, now: clock.now(), dropPrevious: immediately)
        }
    }
}
