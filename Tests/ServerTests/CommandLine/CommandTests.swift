import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("Command-line parsing")
struct CommandTests {
    @Test("serve takes --config, --host, --port and --data-dir")
    func serve() throws {
        let command = try Command.parse([
            "serve", "--config", "x.json", "--port", "0", "--data-dir", "/tmp/d", "--host", "::1",
        ])
        #expect(command == .serve(configPath: "x.json", flags: .init(port: 0, host: "::1", dataDirectory: "/tmp/d")))
        #expect(try Command.parse(["serve"]) == .serve(configPath: nil, flags: .init()))
    }

    @Test("replay takes paths and --bench")
    func replay() throws {
        #expect(
            try Command.parse(["replay", "a", "--bench", "b"]) == .replay(paths: ["a", "b"], bench: true, seconds: 10))
        #expect(
            try Command.parse(["replay", "--seconds", "1.5", "a"]) == .replay(paths: ["a"], bench: false, seconds: 1.5))
    }

    @Test("help, version, keys rotate and keys list")
    func others() throws {
        #expect(try Command.parse([]) == .help)
        #expect(try Command.parse(["--help"]) == .help)
        #expect(try Command.parse(["version"]) == .version)
        #expect(try Command.parse(["keys", "rotate"]) == .rotateKeys(configPath: nil, flags: .init()))
        #expect(
            try Command.parse(["keys", "rotate", "--now", "--config", "c.json"])
                == .rotateKeys(configPath: "c.json", flags: .init(), immediately: true))
        #expect(try Command.parse(["keys", "list"]) == .listKeys(configPath: nil, flags: .init(), json: false))
        #expect(
            try Command.parse(["keys", "list", "--json", "--config", "c.json"])
                == .listKeys(configPath: "c.json", flags: .init(), json: true))
        #expect(throws: Command.UsageError.self) { try Command.parse(["keys", "list", "extra"]) }
        #expect(
            try Command.parse(["encryption-key", "wrap", "--config", "c.json"])
                == .wrapEncryptionKeys(configPath: "c.json", flags: .init()))
        #expect(throws: Command.UsageError.self) { try Command.parse(["encryption-key"]) }
        #expect(throws: Command.UsageError.self) { try Command.parse(["encryption-key", "wrap", "extra"]) }
        var flags = ConfigurationLoader.Flags()
        flags.dataDirectory = "/srv/passkeyd"
        #expect(
            try Command.parse(["database", "copy", "--data-dir", "/srv/passkeyd", "--to", "postgres://db/pk"])
                == .copyDatabase(configPath: nil, flags: flags, to: "postgres://db/pk"))
        #expect(
            try Command.parse(["database", "copy", "--to", "host=db dbname=pk", "--config", "c.json"])
                == .copyDatabase(configPath: "c.json", flags: .init(), to: "host=db dbname=pk"))
        #expect(
            try Command.parse(["database", "backup", "--out", "/backups/pk.sqlite", "--config", "c.json"])
                == .backupDatabase(configPath: "c.json", flags: .init(), out: "/backups/pk.sqlite"))
        #expect(
            try Command.parse(["database", "restore", "--from", "/backups/pk.sqlite"])
                == .restoreDatabase(configPath: nil, flags: .init(), from: "/backups/pk.sqlite"))
        for bad in [
            ["database", "backup"], ["database", "backup", "--to", "x"], ["database", "backup", "--out"],
            ["database", "restore"], ["database", "restore", "--out", "x"],
        ] {
            #expect(throws: Command.UsageError.self, "\(bad)") { try Command.parse(bad) }
        }
        for bad in [
            ["database"], ["database", "copy"], ["database", "copy", "--to"], ["database", "move", "--to", "x"],
            ["database", "copy", "--to", "x", "extra"], ["database", "copy", "--to", ""],
        ] {
            #expect(throws: Command.UsageError.self, "\(bad)") { try Command.parse(bad) }
        }
    }

    @Test(
        "bad arguments are usage errors",
        arguments: [
            ["frobnicate"], ["serve", "--port"], ["serve", "--port", "99999"], ["serve", "--colour", "x"],
            ["serve", "extra"], ["replay"], ["replay", "--seconds", "x", "a"], ["replay", "--fast", "a"], ["keys"],
            ["version", "x"],
        ])
    func usageErrors(arguments: [String]) {
        #expect(throws: Command.UsageError.self) { try Command.parse(arguments) }
    }
}
