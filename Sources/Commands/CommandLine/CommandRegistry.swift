/// The commands of `passkeyd`, in the order the help text lists them: the one place that says which command a
/// command line names. `serve` is handed in by the executable, the only target that may start HTTP.
package struct CommandRegistry: Sendable {
    /// Every command, `serve` first.
    package let commands: [any Command.Type]

    /// The commands of `passkeyd`, with `serve` as the executable defines it.
    package init(serve: any Command.Type) {
        self.init(commands: [
            serve, CheckConfigCommand.self, TryCommand.self, ReplayCeremoniesCommand.self, KeysRotateCommand.self,
            KeysRotateSessionKeyCommand.self,
            KeysListCommand.self, EncryptionKeyWrapCommand.self, DatabaseCopyCommand.self, DatabaseBackupCommand.self,
            DatabaseRestoreCommand.self, AuditExportCommand.self, AuditVerifyCommand.self, UsersListCommand.self,
            UsersShowCommand.self, UsersDeleteCommand.self, UsersUnlockCommand.self, PasskeysListCommand.self,
            PasskeysRevokeCommand.self, SessionsRevokeCommand.self, SessionsRevokeAllCommand.self,
            DeviceKeysRevokeCommand.self, OrgsCreateCommand.self, OrgsListCommand.self, OrgsAddMemberCommand.self,
            OrgsRemoveMemberCommand.self, OrgsDeleteCommand.self, MetadataLoadCommand.self, MetadataShowCommand.self,
            MetadataStatusCommand.self, ClientsNewSecretCommand.self, ClientsJWKCommand.self, VersionCommand.self,
            HelpCommand.self,
        ])
    }

    /// A registry of `commands` (tests).
    package init(commands: [any Command.Type]) {
        self.commands = commands
    }

    /// Parses the arguments after the program's name into the command they name; no arguments is `help`.
    ///
    /// The first word names the command, or its family (`keys`, `users`, …); a family's second word, the first
    /// argument that is neither a flag of the family nor a flag's value, names the command in it (so
    /// `users --json list` is `users list --json`). The rest is the command's (`Command.parse`).
    package func parse(_ arguments: [String]) throws(UsageError) -> any Command {
        guard let first = arguments.first else { return HelpCommand() }
        let family = commands.filter { $0.words.first == first || $0.aliases.contains(first) }
        guard let only = family.first else { throw UsageError("unknown command \"\(first)\"; see passkeyd --help") }
        var rest = Array(arguments.dropFirst())
        if family.count == 1, only.words.count == 1 { return try only.parse(rest) }
        let usage = family.map { $0.synopsis }
        var index = rest.startIndex
        while index < rest.endIndex, rest[index].hasPrefix("--") {
            let argument = rest[index]
            guard let flag = family.lazy.flatMap({ $0.flags }).first(where: { $0.name == argument }) else {
                throw UsageError("unknown option \(argument) for \(first)", usage: usage)
            }
            index += flag.placeholder == nil ? 1 : 2
            guard index <= rest.endIndex else { throw UsageError("\(argument) needs a value", usage: usage) }
        }
        guard index < rest.endIndex else { throw UsageError("\(first) needs a command", usage: usage) }
        let word = rest.remove(at: index)
        guard let command = family.first(where: { $0.words.dropFirst().elementsEqual([word]) }) else {
            throw UsageError("unknown command \"\(first) \(word)\"", usage: usage)
        }
        return try command.parse(rest)
    }

    /// Parses and runs a command line: its exit status, after printing a refusal or failure on standard error
    /// (`passkeyd: …`; status 2 for a command line not understood).
    package func run(_ arguments: [String], context: CommandContext) async -> Int32 {
        do {
            return try await parse(arguments).run(context)
        } catch let error as UsageError {
            context.errorOutput("passkeyd: \(error)")
            return 2
        } catch let failure as CommandFailure {
            context.errorOutput("passkeyd: \(failure)")
            return failure.status
        } catch {
            context.errorOutput("passkeyd: \(error)")
            return 1
        }
    }

    /// The help text: every command's usage line and summary, in the registry's order.
    package var help: String {
        var lines = ["passkeyd — WebAuthn / passkey relying-party server", "", "USAGE"]
        for command in commands {
            lines.append("  \(command.synopsis)")
            lines += command.summary.split(separator: "\n", omittingEmptySubsequences: false).map { "      \($0)" }
        }
        lines += ["", "OPERATOR COMMANDS (users, passkeys, sessions, device-keys, orgs)"]
        lines += AccountOptions.note.split(separator: "\n").map { "  \($0)" }
        lines += [
            "", "SIGNALS",
            "  SIGTERM, SIGINT: stop accepting connections, finish requests in flight, close the database, exit 0.",
        ]
        return lines.joined(separator: "\n")
    }
}
