import Service

/// The flags every operator command on accounts takes (`--json`, `--actor NAME` and the configuration's), and the
/// run they share: the configured store opened beside a running server, one `AdminRequest`, its output and status.
package struct AccountOptions: Sendable, Equatable {
    /// `--json`: JSON for scripts.
    static let json = Switch("--json")
    /// `--actor NAME`: the operator the audit events name (default `$USER`).
    static let actor = Option<String>("--actor", "NAME", requirement: "must be 1 to 128 characters") {
        (1...128).contains($0.count) ? $0 : nil
    }
    /// The flags of every account command.
    package static let flags: [any Flag] = [json, actor] + ConfigurationOptions.flags

    /// What the account commands share, for the help text.
    package static let note = """
        They run on the configured store, safe while the server runs (SQLite's writer lock, PostgreSQL's
        transactions). Each change is an audit event naming the operator (--actor, default $USER).
        --json prints JSON for scripts. Exit 0 on success, 1 when the user, passkey or key is unknown.
        """

    package var configuration: ConfigurationOptions
    package var json: Bool
    package var actor: String?

    package init(configuration: ConfigurationOptions = ConfigurationOptions(), json: Bool = false, actor: String? = nil)
    {
        self.configuration = configuration
        self.json = json
        self.actor = actor
    }

    package init(_ arguments: ParsedArguments) {
        self.init(
            configuration: ConfigurationOptions(arguments), json: arguments[Self.json], actor: arguments[Self.actor])
    }

    /// Runs `request` on the configured store (`AdminCommands`), prints what it printed and returns its status.
    func run(_ request: AdminRequest, _ context: CommandContext) async throws(CommandFailure) -> Int32 {
        let configuration = try configuration.load(context.environment)
        do {
            let outcome = try await AdminCommands.run(
                request, configuration: configuration, json: json,
                actor: actor ?? context.environment["USER"] ?? "operator")
            context.output(outcome.output)
            return outcome.status
        } catch {
            throw CommandFailure("\(error)")
        }
    }
}
