import Service

/// `passkeyd audit export --out DIR`: writes the audit log of the configured database, its latest checkpoint and
/// verifier key to a directory (`AuditCommands.export`).
package struct AuditExportCommand: Command, Equatable {
    /// `--out DIR`: the directory written (created if missing).
    static let directory = Option<String>.nonEmpty("--out", "DIR", required: true)

    package static let words = ["audit", "export"]
    package static let flags: [any Flag] = [directory] + ConfigurationOptions.flags
    package static let summary = """
        Write the audit log (entries, leaf hashes), its latest signed checkpoint and verifier key to DIR.
        """

    package var configuration: ConfigurationOptions
    package var directory: String

    package init(configuration: ConfigurationOptions = ConfigurationOptions(), directory: String) {
        self.configuration = configuration
        self.directory = directory
    }

    package init(_ arguments: ParsedArguments) throws(UsageError) {
        self.init(configuration: ConfigurationOptions(arguments), directory: try arguments.required(Self.directory))
    }

    package func run(_ context: CommandContext) async throws(CommandFailure) -> Int32 {
        let configuration = try configuration.load(context.environment)
        do {
            context.output(try await AuditCommands.export(configuration: configuration, to: directory))
        } catch {
            throw CommandFailure("audit export failed: \(error)")
        }
        return 0
    }
}
