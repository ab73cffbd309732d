/// An operator command on organizations (`orgs …`): one `OrganizationAdminRequest` run with the account commands'
/// shared options (`--json`, `--actor` and the configuration's).
package protocol OrganizationCommand: Command {
    /// The shared flags' values.
    var options: AccountOptions { get }
    /// What it asks of the store.
    var request: OrganizationAdminRequest { get }
}

extension OrganizationCommand {
    package static var flags: [any Flag] { AccountOptions.flags }

    package func run(_ context: CommandContext) async throws(CommandFailure) -> Int32 {
        let configuration = try options.configuration.load(context.environment)
        do {
            let outcome = try await DatabaseDrivers.withStore(configuration) { store in
                try await OrganizationCommands.run(
                    request, store: store, configuration: configuration, json: options.json,
                    actor: options.actor ?? context.environment["USER"] ?? "operator")
            }
            context.output(outcome.output)
            return outcome.status
        } catch {
            throw CommandFailure("\(error)")
        }
    }
}
