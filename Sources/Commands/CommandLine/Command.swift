import Service

/// What the `passkeyd` binary was asked to do, parsed from its arguments.
public enum Command: Sendable, Equatable {
    /// Run the server.
    case serve(configPath: String?, flags: ConfigurationLoader.Flags)
    /// Validate a configuration without starting: no listener, no database, no file written.
    case checkConfig(configPath: String?)
    /// Verify recorded ceremonies (`--bench`: measure instead).
    case replay(paths: [String], bench: Bool, seconds: Double)
    /// Add a new token-signing key.
    case rotateKeys(configPath: String?, flags: ConfigurationLoader.Flags, immediately: Bool = false)
    /// List the token-signing keys: state and encryption at rest.
    case listKeys(configPath: String?, flags: ConfigurationLoader.Flags, json: Bool)
    /// Wrap the key-encryption key files under the HSM key `encryption_at_rest.pkcs11` names.
    case wrapEncryptionKeys(configPath: String?, flags: ConfigurationLoader.Flags)
    /// Copy the node's SQLite database into an empty PostgreSQL database (`to`: its connection string).
    case copyDatabase(configPath: String?, flags: ConfigurationLoader.Flags, to: String)
    /// Write a consistent copy of the SQLite database to a new file, beside a running server.
    case backupDatabase(configPath: String?, flags: ConfigurationLoader.Flags, out: String)
    /// Put a SQLite backup in place of the database, the server stopped.
    case restoreDatabase(configPath: String?, flags: ConfigurationLoader.Flags, from: String)
    /// Write the audit log, its latest checkpoint and verifier key to a directory.
    case auditExport(configPath: String?, flags: ConfigurationLoader.Flags, out: String)
    /// Verify an exported audit log offline.
    case auditVerify(directory: String, key: String?, previous: String?)
    /// An operator command on accounts (`users`, `passkeys`, `sessions`, `device-keys`).
    case admin(
        configPath: String?, flags: ConfigurationLoader.Flags, request: AdminRequest, json: Bool, actor: String?)
    /// Print the version.
    case version
    /// Print the usage text.
    case help

    /// Why the arguments could not be understood.
    public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// The version printed by `passkeyd version`.
    public static let versionString = "0.1.0"

    /// The usage text printed by `passkeyd --help`.
    public static let usage = """
        passkeyd — WebAuthn / passkey relying-party server

        USAGE
          passkeyd serve [--config FILE] [--host HOST] [--port N] [--data-dir DIR] [--record DIR]
              Run the server. The configuration is read from FILE (default: $PASSKEYD_CONFIG or
              Config/passkeyd.json); PASSKEYD_… environment variables override it, flags override both.
              --record DIR: record mode, every WebAuthn ceremony judged is written to DIR (docs/recording.md).
          passkeyd check-config [--config FILE]
              Validate the configuration (file and PASSKEYD_… variables) as serve reads it, without starting:
              no listener, no database opened, nothing written. Exits 0 if it is valid, 2 with serve's
              one-line message if not.
          passkeyd replay [--bench [--seconds N]] PATH...
              Verify recorded ceremonies (.json files, .jsonl files, or folders of them); prints one line per
              ceremony and a closing "N passed, M failed" line; exits 1 if any failed. --bench measures instead
              for N seconds (default 10): ceremonies/s per category, median of five repetitions, as JSON.
          passkeyd keys rotate [--now] [--config FILE] [--data-dir DIR]
              Add a new token-signing key; it signs from then on, older keys stay published until their
              tokens have expired.
          passkeyd keys list [--json] [--config FILE] [--data-dir DIR]
              List the token-signing keys: kid, algorithm, state (signing, pending, retired, published,
              expired) and whether each is encrypted at rest, under which key-encryption key.
          passkeyd encryption-key wrap [--config FILE] [--data-dir DIR]
              Wrap encryption_at_rest.key_file and decryption_key_files, in place, under the HSM key
              encryption_at_rest.pkcs11 names (the keys do not change; the files alone then open nothing).
          passkeyd database copy --to URL [--config FILE] [--data-dir DIR]
              Copy the SQLite database the configuration names into the empty PostgreSQL database URL names
              (postgres://… or key=value pairs; PG… variables fill what it leaves out, so the password can stay
              out of the command line), in one transaction, read back and compared before it commits. No node may
              run on the data directory meanwhile.
          passkeyd database backup --out FILE [--config FILE] [--data-dir DIR]
              Write a consistent copy of the SQLite database to FILE (new, mode 0600), beside a running server;
              checked with SQLite's integrity check before it is given its name.
          passkeyd database restore --from FILE [--config FILE] [--data-dir DIR]
              Put the backup FILE in place of the SQLite database (no server may run on the data directory); the
              database it replaces is moved aside with its WAL, never deleted.
          passkeyd audit export --out DIR [--config FILE] [--data-dir DIR]
              Write the audit log (entries, leaf hashes), its latest signed checkpoint and verifier key to DIR.
          passkeyd audit verify DIR [--key KEY] [--previous CHECKPOINT]
              Recompute the Merkle tree of an exported log, check the checkpoint's signature by KEY (the verifier
              key text or a file holding it; default DIR/key) and its consistency with an earlier CHECKPOINT file;
              names the first entry that differs. Exits 0 if the log verifies, 1 if not.
        \(AdminRequest.usage)
          passkeyd version
          passkeyd --help

        SIGNALS
          SIGTERM, SIGINT: stop accepting connections, finish requests in flight, close the database, exit 0.
        """

    /// Parses the arguments after the program name.
    public static func parse(_ arguments: [String]) throws(UsageError) -> Command {
        guard let verb = arguments.first else { return .help }
        var rest = Array(arguments.dropFirst())
        switch verb {
        case "serve":
            let (config, flags) = try parseServerFlags(&rest, allowingRecord: true)
            try expectEmpty(rest)
            return .serve(configPath: config, flags: flags)
        case "check-config":
            var config: String?
            while let argument = rest.first {
                rest.removeFirst()
                guard argument == "--config" else {
                    throw UsageError(
                        message: "unknown argument \(argument) for check-config; usage: check-config --config FILE")
                }
                guard let value = rest.first else { throw UsageError(message: "--config needs a value") }
                rest.removeFirst()
                config = value
            }
            return .checkConfig(configPath: config)
        case "replay":
            var bench = false
            var seconds = 10.0
            var paths: [String] = []
            while let argument = rest.first {
                rest.removeFirst()
                switch argument {
                case "--bench": bench = true
                case "--seconds":
                    guard let text = rest.first, let value = Double(text), value > 0, value <= 3600 else {
                        throw UsageError(message: "--seconds needs a number of seconds between 0 and 3600")
                    }
                    rest.removeFirst()
                    seconds = value
                case _ where argument.hasPrefix("--"):
                    throw UsageError(message: "unknown option \(argument) for replay")
                default: paths.append(argument)
                }
            }
            guard !paths.isEmpty else { throw UsageError(message: "replay needs at least one PATH") }
            return .replay(paths: paths, bench: bench, seconds: seconds)
        case "keys":
            if rest.first == "list" {
                rest.removeFirst()
                let json = rest.contains("--json")
                rest.removeAll { $0 == "--json" }
                let (config, flags) = try parseServerFlags(&rest)
                try expectEmpty(rest)
                return .listKeys(configPath: config, flags: flags, json: json)
            }
            guard rest.first == "rotate" else {
                throw UsageError(message: "usage: passkeyd keys rotate [--now] [--config FILE] | keys list [--json]")
            }
            rest.removeFirst()
            // --now: the new key signs at once instead of after every node has published it (a compromised key).
            let immediately = rest.contains("--now")
            rest.removeAll { $0 == "--now" }
            let (config, flags) = try parseServerFlags(&rest)
            try expectEmpty(rest)
            return .rotateKeys(configPath: config, flags: flags, immediately: immediately)
        case "encryption-key":
            guard rest.first == "wrap" else {
                throw UsageError(message: "usage: passkeyd encryption-key wrap [--config FILE] [--data-dir DIR]")
            }
            rest.removeFirst()
            let (config, flags) = try parseServerFlags(&rest)
            try expectEmpty(rest)
            return .wrapEncryptionKeys(configPath: config, flags: flags)
        case "database":
            return try parseDatabase(rest)
        case "audit":
            return try parseAudit(rest)
        case "users", "passkeys", "sessions", "device-keys":
            return try parseAdmin(noun: verb, rest)
        case "version", "--version":
            try expectEmpty(rest)
            return .version
        case "help", "--help", "-h":
            return .help
        default:
            throw UsageError(message: "unknown command \"\(verb)\"; see passkeyd --help")
        }
    }

    private static func parseDatabase(_ arguments: [String]) throws(UsageError) -> Command {
        var rest = arguments
        let usage = UsageError(
            message:
                "usage: passkeyd database copy --to URL | database backup --out FILE | database restore --from FILE "
                + "[--config FILE] [--data-dir DIR]")
        let options = ["copy": "--to", "backup": "--out", "restore": "--from"]
        guard let action = rest.first, let option = options[action] else { throw usage }
        rest.removeFirst()
        var value: String?
        if let index = rest.firstIndex(of: option) {
            guard index + 1 < rest.count else { throw UsageError(message: "\(option) needs a value") }
            value = rest[index + 1]
            rest.removeSubrange(index...(index + 1))
        }
        let (config, flags) = try parseServerFlags(&rest)
        try expectEmpty(rest)
        guard let value, !value.isEmpty else { throw UsageError(message: "database \(action) needs \(option)") }
        switch action {
        case "copy": return .copyDatabase(configPath: config, flags: flags, to: value)
        case "backup": return .backupDatabase(configPath: config, flags: flags, out: value)
        default: return .restoreDatabase(configPath: config, flags: flags, from: value)
        }
    }

    private static func parseAudit(_ arguments: [String]) throws(UsageError) -> Command {
        var rest = arguments
        let usage = UsageError(
            message:
                "usage: passkeyd audit export --out DIR [--config FILE] | audit verify DIR [--key KEY] [--previous FILE]"
        )
        guard let action = rest.first else { throw usage }
        rest.removeFirst()
        switch action {
        case "export":
            var out: String?
            var serverFlags: [String] = []
            while let argument = rest.first {
                rest.removeFirst()
                guard let value = rest.first else { throw UsageError(message: "\(argument) needs a value") }
                rest.removeFirst()
                if argument == "--out" { out = value } else { serverFlags += [argument, value] }
            }
            let (config, flags) = try parseServerFlags(&serverFlags)
            try expectEmpty(serverFlags)
            guard let out else { throw UsageError(message: "audit export needs --out DIR") }
            return .auditExport(configPath: config, flags: flags, out: out)
        case "verify":
            var directory: String?
            var key: String?
            var previous: String?
            while let argument = rest.first {
                rest.removeFirst()
                switch argument {
                case "--key", "--previous":
                    guard let value = rest.first else { throw UsageError(message: "\(argument) needs a value") }
                    rest.removeFirst()
                    if argument == "--key" { key = value } else { previous = value }
                case _ where argument.hasPrefix("--"):
                    throw UsageError(message: "unknown option \(argument) for audit verify")
                default:
                    guard directory == nil else { throw UsageError(message: "unexpected argument \"\(argument)\"") }
                    directory = argument
                }
            }
            guard let directory else { throw UsageError(message: "audit verify needs the exported DIR") }
            return .auditVerify(directory: directory, key: key, previous: previous)
        default:
            throw usage
        }
    }

    private static func parseAdmin(noun: String, _ arguments: [String]) throws(UsageError) -> Command {
        var words: [String] = []
        var serverFlags: [String] = []
        var json = false
        var actor: String?
        var after: String?
        var limit = 100
        var rest = arguments
        while let argument = rest.first {
            rest.removeFirst()
            switch argument {
            case "--json": json = true
            case "--actor", "--after", "--limit", "--config", "--host", "--port", "--data-dir":
                guard let value = rest.first else { throw UsageError(message: "\(argument) needs a value") }
                rest.removeFirst()
                switch argument {
                case "--actor":
                    guard !value.isEmpty, value.count <= 128 else {
                        throw UsageError(message: "--actor must be 1 to 128 characters")
                    }
                    actor = value
                case "--after": after = value
                case "--limit":
                    guard let number = Int(value), (1...10_000).contains(number) else {
                        throw UsageError(message: "--limit must be a number from 1 to 10000")
                    }
                    limit = number
                default: serverFlags += [argument, value]
                }
            case _ where argument.hasPrefix("--"):
                throw UsageError(message: "unknown option \(argument) for \(noun)")
            default: words.append(argument)
            }
        }
        let (config, flags) = try parseServerFlags(&serverFlags)
        guard let request = AdminRequest.parse(noun: noun, words, after: after, limit: limit) else {
            throw UsageError(message: "usage:\n\(AdminRequest.usage)")
        }
        return .admin(configPath: config, flags: flags, request: request, json: json, actor: actor)
    }

    /// `--record` only with `allowingRecord` (serve).
    private static func parseServerFlags(_ rest: inout [String], allowingRecord: Bool = false) throws(UsageError) -> (
        String?, ConfigurationLoader.Flags
    ) {
        var config: String?
        var flags = ConfigurationLoader.Flags()
        while let argument = rest.first, argument.hasPrefix("--") {
            rest.removeFirst()
            guard let value = rest.first else { throw UsageError(message: "\(argument) needs a value") }
            rest.removeFirst()
            switch argument {
            case "--config": config = value
            case "--host": flags.host = value
            case "--data-dir": flags.dataDirectory = value
            case "--record" where allowingRecord:
                guard !value.isEmpty else { throw UsageError(message: "--record needs a directory") }
                flags.recordDirectory = value
            case "--port":
                guard let port = Int(value), (0...65535).contains(port) else {
                    throw UsageError(message: "--port must be a number from 0 to 65535")
                }
                flags.port = port
            default: throw UsageError(message: "unknown option \(argument)")
            }
        }
        return (config, flags)
    }

    private static func expectEmpty(_ rest: [String]) throws(UsageError) {
        if let extra = rest.first { throw UsageError(message: "unexpected argument \"\(extra)\"") }
    }
}
