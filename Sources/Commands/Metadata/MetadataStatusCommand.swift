import Foundation
import Service

/// `passkeyd metadata status [--json]`: the stored BLOB, as every server loads it.
package struct MetadataStatusCommand: Command, Equatable {
    /// `--json`: JSON for scripts.
    static let json = Switch("--json")

    package static let words = ["metadata", "status"]
    package static let flags: [any Flag] = [json] + ConfigurationOptions.flags
    package static let summary = """
        Show the stored FIDO MDS3 BLOB: serial, next update, when and from where it was loaded, entries, whether
        it is stale and whether it verifies with this configuration. Exit 1 when none is stored.
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
        let outcome: AdminCommands.Outcome
        do {
            outcome = try await DatabaseDrivers.withStore(configuration) { store in
                try await MetadataCommands.status(
                    store: store, settings: configuration.metadata, now: Date(), json: json)
            }
        } catch {
            throw CommandFailure("metadata status: \(error)")
        }
        context.output(outcome.output)
        return outcome.status
    }
}
