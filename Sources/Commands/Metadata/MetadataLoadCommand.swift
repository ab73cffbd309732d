import Foundation

/// `passkeyd metadata load FILE`: verifies a FIDO MDS3 BLOB and stores it for every node.
package struct MetadataLoadCommand: Command, Equatable {
    /// The BLOB file (the JWS as downloaded).
    static let file = Operand("FILE")

    package static let words = ["metadata", "load"]
    package static let operands = [file]
    package static let flags: [any Flag] = ConfigurationOptions.flags
    package static let summary = """
        Verify a FIDO MDS3 BLOB (signature, chain to metadata.root_certificate_file, CRLs, nextUpdate) and store
        it: running servers use it at their next refresh. Prints serial, entries and next update; a BLOB that does
        not verify, or is older than the stored one, is refused with the reason (exit 1) and the stored one kept.
        """

    package var configuration: ConfigurationOptions
    package var file: String

    package init(configuration: ConfigurationOptions = ConfigurationOptions(), file: String) {
        self.configuration = configuration
        self.file = file
    }

    package init(_ arguments: ParsedArguments) {
        self.init(configuration: ConfigurationOptions(arguments), file: arguments.word(Self.file))
    }

    package func run(_ context: CommandContext) async throws(CommandFailure) -> Int32 {
        let configuration = try configuration.load(context.environment)
        context.output(try await MetadataCommands.load(file: file, configuration: configuration, now: Date()))
        return 0
    }
}
