import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("Command-line parsing")
struct CommandTests {
    /// The command the binary finds in `arguments`.
    static func parse(_ arguments: [String]) throws -> any Command {
        try CommandRegistry.passkeyd.parse(arguments)
    }

    @Test("serve takes --config, --host, --port and --data-dir")
    func serve() throws {
        let command = try Self.parse([
            "serve", "--config", "x.json", "--port", "0", "--data-dir", "/tmp/d", "--host", "::1",
        ])
        #expect(
            command as? ServeCommand
                == ServeCommand(
                    configuration: .init(
                        path: "x.json", overrides: .init(port: 0, host: "::1", dataDirectory: "/tmp/d"))
                ))
        #expect(try Self.parse(["serve"]) as? ServeCommand == ServeCommand())
    }

    @Test("replay takes paths and --bench")
    func replay() throws {
        #expect(
            try Self.parse(["replay", "a", "--bench", "b"]) as? ReplayCeremoniesCommand
                == ReplayCeremoniesCommand(paths: ["a", "b"], bench: true, seconds: 10))
        #expect(
            try Self.parse(["replay", "--seconds", "1.5", "a"]) as? ReplayCeremoniesCommand
                == ReplayCeremoniesCommand(paths: ["a"], bench: false, seconds: 1.5))
    }

    @Test("help, version, keys rotate, keys rotate-session-key and keys list")
    func others() throws {
        #expect(try Self.parse([]) is HelpCommand)
        #expect(try Self.parse(["--help"]) is HelpCommand)
        #expect(try Self.parse(["version"]) is VersionCommand)
        #expect(try Self.parse(["keys", "rotate"]) as? KeysRotateCommand == KeysRotateCommand())
        #expect(
            try Self.parse(["keys", "rotate", "--now", "--config", "c.json"]) as? KeysRotateCommand
                == KeysRotateCommand(configuration: .init(path: "c.json"), immediately: true))
        #expect(
            try Self.parse(["keys", "rotate-session-key"]) as? KeysRotateSessionKeyCommand
                == KeysRotateSessionKeyCommand())
        #expect(
            try Self.parse(["keys", "rotate-session-key", "--now"]) as? KeysRotateSessionKeyCommand
                == KeysRotateSessionKeyCommand(immediately: true))
        #expect(try Self.parse(["keys", "list"]) as? KeysListCommand == KeysListCommand())
        #expect(
            try Self.parse(["keys", "list", "--json", "--config", "c.json"]) as? KeysListCommand
                == KeysListCommand(configuration: .init(path: "c.json"), json: true))
        #expect(throws: UsageError.self) { try Self.parse(["keys", "list", "extra"]) }
        #expect(
            try Self.parse(["encryption-key", "wrap", "--config", "c.json"]) as? EncryptionKeyWrapCommand
                == EncryptionKeyWrapCommand(configuration: .init(path: "c.json")))
        #expect(throws: UsageError.self) { try Self.parse(["encryption-key"]) }
        #expect(throws: UsageError.self) { try Self.parse(["encryption-key", "wrap", "extra"]) }
        #expect(
            try Self.parse(["database", "copy", "--data-dir", "/srv/passkeyd", "--to", "postgres://db/pk"])
                as? DatabaseCopyCommand
                == DatabaseCopyCommand(
                    configuration: .init(overrides: .init(dataDirectory: "/srv/passkeyd")), target: "postgres://db/pk"))
        #expect(
            try Self.parse(["database", "copy", "--to", "host=db dbname=pk", "--config", "c.json"])
                as? DatabaseCopyCommand
                == DatabaseCopyCommand(configuration: .init(path: "c.json"), target: "host=db dbname=pk"))
        #expect(
            try Self.parse(["database", "backup", "--out", "/backups/pk.sqlite", "--config", "c.json"])
                as? DatabaseBackupCommand
                == DatabaseBackupCommand(configuration: .init(path: "c.json"), destination: "/backups/pk.sqlite"))
        #expect(
            try Self.parse(["database", "restore", "--from", "/backups/pk.sqlite"]) as? DatabaseRestoreCommand
                == DatabaseRestoreCommand(backup: "/backups/pk.sqlite"))
        for bad in [
            ["database", "backup"], ["database", "backup", "--to", "x"], ["database", "backup", "--out"],
            ["database", "restore"], ["database", "restore", "--out", "x"],
        ] {
            #expect(throws: UsageError.self, "\(bad)") { try Self.parse(bad) }
        }
        for bad in [
            ["database"], ["database", "copy"], ["database", "copy", "--to"], ["database", "move", "--to", "x"],
            ["database", "copy", "--to", "x", "extra"], ["database", "copy", "--to", ""],
            // As the database commands' files, audit export's directory cannot be empty.
            ["audit", "export", "--out", ""],
        ] {
            #expect(throws: UsageError.self, "\(bad)") { try Self.parse(bad) }
        }
    }

    @Test("the command lines of scripts/ and of packaging/passkeyd.service read as they always did")
    func scripts() throws {
        let config = "Config/passkeyd.json"
        let data = ConfigurationOptions(path: config, overrides: .init(dataDirectory: "d"))
        #expect(
            try Self.parse(["serve", "--config", config, "--port", "8080", "--data-dir", "d"]) as? ServeCommand
                == ServeCommand(configuration: .init(path: config, overrides: .init(port: 8080, dataDirectory: "d"))))
        #expect(
            try Self.parse(["check-config", "--config", "/etc/passkeyd/passkeyd.json"]) as? CheckConfigCommand
                == CheckConfigCommand(configuration: .init(path: "/etc/passkeyd/passkeyd.json")))
        #expect(
            try Self.parse(["database", "backup", "--out", "b", "--config", config, "--data-dir", "d"])
                as? DatabaseBackupCommand == DatabaseBackupCommand(configuration: data, destination: "b"))
        #expect(
            try Self.parse(["database", "restore", "--from", "b", "--config", config, "--data-dir", "d"])
                as? DatabaseRestoreCommand == DatabaseRestoreCommand(configuration: data, backup: "b"))
        #expect(
            try Self.parse(["database", "copy", "--to", "postgres://x", "--config", config, "--data-dir", "d"])
                as? DatabaseCopyCommand == DatabaseCopyCommand(configuration: data, target: "postgres://x"))
        #expect(
            try Self.parse(["encryption-key", "wrap", "--config", config, "--data-dir", "d"])
                as? EncryptionKeyWrapCommand == EncryptionKeyWrapCommand(configuration: data))
        #expect(
            try Self.parse(["keys", "list", "--json", "--config", config, "--data-dir", "d"]) as? KeysListCommand
                == KeysListCommand(configuration: data, json: true))
        #expect(
            try Self.parse(["keys", "rotate", "--config", config, "--data-dir", "d"]) as? KeysRotateCommand
                == KeysRotateCommand(configuration: data))
        #expect(
            try Self.parse(["audit", "export", "--config", config, "--data-dir", "d", "--out", "e"])
                as? AuditExportCommand == AuditExportCommand(configuration: data, directory: "e"))
        #expect(
            try Self.parse(["audit", "verify", "e", "--key", "k", "--previous", "p"]) as? AuditVerifyCommand
                == AuditVerifyCommand(directory: "e", key: "k", previous: "p"))
        #expect(
            try Self.parse(["replay", "--bench", "w.jsonl"]) as? ReplayCeremoniesCommand
                == ReplayCeremoniesCommand(paths: ["w.jsonl"], bench: true))
    }

    @Test(
        "bad arguments are usage errors",
        arguments: [
            ["frobnicate"], ["serve", "--port"], ["serve", "--port", "99999"], ["serve", "--colour", "x"],
            ["serve", "extra"], ["replay"], ["replay", "--seconds", "x", "a"], ["replay", "--fast", "a"], ["keys"],
            ["version", "x"],
        ])
    func usageErrors(arguments: [String]) {
        #expect(throws: UsageError.self) { try Self.parse(arguments) }
    }
}
