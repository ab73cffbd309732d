/// An operator command on accounts (`users …`, `passkeys …`, `sessions …`, `device-keys …`): one `AdminRequest`
/// run with the shared `AccountOptions`.
package protocol AccountCommand: Command {
    /// The shared flags' values.
    var options: AccountOptions { get }
    /// What it asks of the store.
    var request: AdminRequest { get }
}

extension AccountCommand {
    package static var flags: [any Flag] { AccountOptions.flags }

    package func run(_ context: CommandContext) async throws(CommandFailure) -> Int32 {
        try await options.run(request, context)
    }
}
