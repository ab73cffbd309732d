import Foundation
import Synchronization
import Testing

@testable import Commands
@testable import passkeyd

@Suite("The command registry: usage, help and running")
struct CommandRegistryTests {
    /// Runs a command line in process; its status, standard output and standard error.
    static func run(_ arguments: [String], environment: [String: String] = [:]) async
        -> (status: Int32, output: [String], errors: [String])
    {
        let output = Mutex<[String]>([])
        let errors = Mutex<[String]>([])
        let context = CommandContext(
            environment: environment, registry: .passkeyd, output: { line in output.withLock { $0.append(line) } },
            errorOutput: { line in errors.withLock { $0.append(line) } })
        let status = await CommandRegistry.passkeyd.run(arguments, context: context)
        return (status, output.withLock { $0 }, errors.withLock { $0 })
    }

    /// The repository's root.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test("a refused command line names the fault, then the usage line of the command from its declaration")
    func usageOfTheCommand() throws {
        #expect(
            throws: UsageError(
                "unexpected argument \"extra\"", usage: ["passkeyd keys list [--json] [--config FILE] [--data-dir DIR]"]
            )
        ) { try CommandRegistry.passkeyd.parse(["keys", "list", "extra"]) }
        #expect(
            throws: UsageError(
                "unknown command \"keys frob\"",
                usage: [KeysRotateCommand.synopsis, KeysRotateSessionKeyCommand.synopsis, KeysListCommand.synopsis])
        ) { try CommandRegistry.passkeyd.parse(["keys", "frob"]) }
        #expect(
            throws: UsageError(
                "users unlock needs USER",
                usage: ["passkeyd users unlock USER [--json] [--actor NAME] [--config FILE] [--data-dir DIR]"])
        ) { try CommandRegistry.passkeyd.parse(["users", "unlock"]) }
    }

    @Test("a family's command word may follow the family's flags, as it always could for the account commands")
    func familyWord() throws {
        let parsed = try CommandRegistry.passkeyd.parse(["users", "--json", "--actor", "list", "list", "--limit", "5"])
        let list = try #require(parsed as? UsersListCommand)
        #expect(list.options == AccountOptions(json: true, actor: "list"))
        #expect(list.request == .listUsers(after: nil, limit: 5))
        #expect(throws: UsageError.self) { try CommandRegistry.passkeyd.parse(["users", "--bogus", "list"]) }
        #expect(throws: UsageError.self) { try CommandRegistry.passkeyd.parse(["users", "--actor"]) }
    }

    @Test("the registry is unambiguous: one command per words, and a flag takes a value in every command or none")
    func unambiguous() {
        let commands = CommandRegistry.passkeyd.commands
        #expect(Set(commands.map { $0.name }).count == commands.count)
        var takesValue: [String: Bool] = [:]
        for command in commands {
            for flag in command.flags {
                let family = "\(command.words[0]) \(flag.name)"
                #expect(takesValue[family, default: flag.placeholder != nil] == (flag.placeholder != nil), "\(family)")
                takesValue[family] = flag.placeholder != nil
            }
            for line in command.summary.split(separator: "\n") { #expect(line.count <= 110, "\(command.name)") }
        }
    }

    @Test("the README's Commands section shows the usage line of every command, in the registry's order")
    func readme() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "## Commands\n\n```\n").dropFirst().first)
        let block = try #require(section.components(separatedBy: "\n```").first)
        #expect(block.split(separator: "\n").map(String.init) == CommandRegistry.passkeyd.commands.map { $0.synopsis })
    }

    @Test("help prints every command's usage line and summary, from the registry")
    func help() async {
        let (status, output, errors) = await Self.run(["help", "--anything", "goes"])
        #expect(status == 0 && errors.isEmpty && output == [CommandRegistry.passkeyd.help])
        let help = CommandRegistry.passkeyd.help
        for command in CommandRegistry.passkeyd.commands {
            let summary = command.summary.split(separator: "\n").map { "      \($0)" }.joined(separator: "\n")
            #expect(help.contains("  \(command.synopsis)\n\(summary)\n"), "\(command.name)")
        }
        #expect(await Self.run([]).output == [help])
        #expect(await Self.run(["-h"]).output == [help])
    }

    @Test("version, a refusal and check-config print what the binary always printed, with its status")
    func running() async {
        let version = await Self.run(["--version"])
        #expect(version.status == 0 && version.output == ["passkeyd 0.1.0"] && version.errors.isEmpty)
        let unknown = await Self.run(["frobnicate"])
        #expect(unknown.status == 2 && unknown.output.isEmpty)
        #expect(unknown.errors == ["passkeyd: unknown command \"frobnicate\"; see passkeyd --help"])
        let refused = await Self.run(["serve", "--port", "99999"])
        #expect(refused.status == 2)
        #expect(
            refused.errors == [
                "passkeyd: --port must be a number from 0 to 65535\nusage: \(ServeCommand.synopsis)"
            ])
        let file = Self.root.appendingPathComponent("Config/passkeyd.json").path
        let checked = await Self.run(["check-config", "--config", file])
        #expect(checked.status == 0 && checked.output == ["passkeyd: configuration \(file) is valid"])
        let missing = await Self.run(["check-config"], environment: ["PASSKEYD_CONFIG": file + ".missing"])
        #expect(missing.status == 2 && missing.output.isEmpty && missing.errors.count == 1)
        #expect(missing.errors.first?.hasPrefix("passkeyd: ") == true)
    }
}
