import Foundation
import Replay
import Service
import Commands

// The passkeyd binary: parses the command line and hands over to the Server module (`replay`: the Replay module).

// The one read of the process environment: the configuration loader takes its `PASSKEYD_…` variables (`log_level`
// among them) and the PINs its `pin_env` settings name; `USER` is the default actor of the admin commands. (The
// PostgreSQL driver reads libpq's `PG*` variables itself, as libpq documents them.)
let environment = ProcessInfo.processInfo.environment

func fail(_ message: String, status: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data("passkeyd: \(message)\n".utf8))
    exit(status)
}

/// The configuration every command reads, as `serve` does: on a bad one, its one-line message and status 2.
func loadConfiguration(_ path: String?, flags: ConfigurationLoader.Flags = ConfigurationLoader.Flags())
    -> ServerConfiguration
{
    do {
        return try ConfigurationLoader.load(
            path: path, environment: environment, flags: flags, checkDatabaseURL: DatabaseDrivers.checkURL)
    } catch {
        fail("\(error)")
    }
}

let command: Command
do {
    command = try Command.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    fail("\(error)")
}

switch command {
case .help:
    print(Command.usage)
case .version:
    print("passkeyd \(Command.versionString)")
case .serve(let configPath, let flags):
    let configuration = loadConfiguration(configPath, flags: flags)
    exit(await PasskeydServer.run(configuration: configuration, logger: Logger(minimum: configuration.logLevel)))
case .checkConfig(let configPath):
    // The same loading as serve, so the same one-line message and status on a bad configuration; nothing more:
    // no data directory, database, listener or recording directory is touched (docs: README, check-config).
    let report = CheckConfigCommand.report(
        loadConfiguration(configPath), file: ConfigurationLoader.file(configPath, environment: environment))
    for warning in report.warnings { FileHandle.standardError.write(Data((warning + "\n").utf8)) }
    print(report.valid)
case .replay(let paths, let bench, let seconds):
    if bench {
        do {
            print(try ReplayBenchmark.run(paths: paths, seconds: seconds))
        } catch {
            fail("\(error)", status: 1)
        }
    } else {
        exit(ReplayCommand.run(paths: paths) { print($0) })
    }
case .auditExport(let configPath, let flags, let out):
    let configuration = loadConfiguration(configPath, flags: flags)
    do {
        print(try await AuditCommands.export(configuration: configuration, to: out))
    } catch {
        fail("audit export failed: \(error)", status: 1)
    }
case .auditVerify(let directory, let key, let previous):
    let (status, message) = AuditCommands.verify(directory: directory, key: key, previous: previous)
    print(message)
    exit(status)
case .admin(let configPath, let flags, let request, let json, let actor):
    let configuration = loadConfiguration(configPath, flags: flags)
    do {
        let outcome = try await AdminCommands.run(
            request, configuration: configuration, json: json, actor: actor ?? environment["USER"] ?? "operator")
        print(outcome.output)
        exit(outcome.status)
    } catch {
        fail("\(error)", status: 1)
    }
case .listKeys(let configPath, let flags, let json):
    let configuration = loadConfiguration(configPath, flags: flags)
    do {
        let statuses = try await PasskeydServer.signingKeyStatuses(configuration: configuration)
        print(SigningKeyStatus.listing(statuses, json: json))
    } catch {
        fail("keys list failed: \(error)", status: 1)
    }
case .copyDatabase(let configPath, let flags, let target):
    let configuration = loadConfiguration(configPath, flags: flags)
    do {
        for line in try await DatabaseCopyCommand.run(configuration: configuration, to: target) { print(line) }
    } catch {
        fail("database copy failed: \(error)", status: 1)
    }
case .backupDatabase(let configPath, let flags, let out):
    let configuration = loadConfiguration(configPath, flags: flags)
    do {
        for line in try DatabaseBackupCommand.run(configuration: configuration, to: out) { print(line) }
    } catch {
        fail("database backup failed: \(error)", status: 1)
    }
case .restoreDatabase(let configPath, let flags, let backup):
    let configuration = loadConfiguration(configPath, flags: flags)
    do {
        for line in try await DatabaseRestoreCommand.run(configuration: configuration, from: backup) { print(line) }
    } catch {
        fail("database restore failed: \(error)", status: 1)
    }
case .wrapEncryptionKeys(let configPath, let flags):
    let configuration = loadConfiguration(configPath, flags: flags)
    do {
        for outcome in try PasskeydServer.wrapEncryptionKeys(configuration: configuration) { print(outcome) }
    } catch {
        fail("encryption-key wrap failed: \(error)", status: 1)
    }
case .rotateKeys(let configPath, let flags, let immediately):
    let configuration = loadConfiguration(configPath, flags: flags)
    do {
        let (kids, signsFrom) = try await PasskeydServer.rotateKeys(
            configuration: configuration, immediately: immediately)
        let when =
            immediately ? "now" : "\(ISO8601DateFormatter().string(from: signsFrom)), once every node publishes it"
        print(
            "new signing keys \(kids.joined(separator: ", ")) (ES256, RS256); they sign from \(when); older keys stay "
                + "published until their tokens expire")
    } catch {
        fail("keys rotate failed: \(error)", status: 1)
    }
}
