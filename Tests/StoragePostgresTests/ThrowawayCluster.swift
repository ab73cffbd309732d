import Foundation
import Storage
import StoragePostgres
import Testing

/// A PostgreSQL cluster of one test's own (`scripts/dev/throwaway-postgres.sh`), for tests that crash and restart the
/// server: the shared test server (`PostgresTestDatabase`) serves the tests running alongside, which a restart would
/// disturb. Started, restarted and removed by the script's functions, in a shell each.
struct ThrowawayCluster: Sendable {
    /// The repository (the script's paths are relative to it).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Whether one can be started: the PostgreSQL tests run (`PASSKEYD_TEST_DATABASE_URL`) and the server binaries
    /// the script uses are installed.
    static var isAvailable: Bool {
        guard PostgresTestDatabase.isConfigured else { return false }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        return versions.contains {
            FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\($0)/bin/initdb")
        }
    }

    static let skipReason: Comment =
        "PostgreSQL tests are off (PASSKEYD_TEST_DATABASE_URL), or no PostgreSQL server binaries for a cluster of its own"

    /// The cluster's directory (`PG_THROWAWAY_DIR`).
    let directory: String
    /// Its URL (loopback, a free port).
    let url: String

    /// Starts a cluster, runs `body` with it, and removes it (also when `body` throws).
    static func with(_ body: (ThrowawayCluster) async throws -> Void) async throws {
        let started = try await script(
            "start_throwaway_postgres && echo \"$PG_THROWAWAY_DIR\" && echo \"$PASSKEYD_TEST_DATABASE_URL\"")
        let lines = started.split(separator: "\n").map(String.init)
        guard lines.count >= 2 else { throw StorageError(.io, "the throwaway cluster printed \(started)") }
        let cluster = ThrowawayCluster(directory: lines[lines.count - 2], url: lines[lines.count - 1])
        do {
            try await body(cluster)
        } catch {
            await cluster.remove()
            throw error
        }
        await cluster.remove()
    }

    /// A configuration for the cluster's default schema.
    func configuration(poolSize: Int = 2) throws -> PostgresConfiguration {
        var configuration = try PostgresConfiguration(url, environment: [:])
        configuration.poolSize = poolSize
        configuration.applicationName = "passkeyd-tests-restart"
        return configuration
    }

    /// Kills every server process at once, as in a crash (`pg_ctl restart -m immediate`), and starts it again;
    /// returns once it accepts connections (crash recovery done).
    func crashAndRestart() async throws {
        _ = try await Self.script("PG_THROWAWAY_DIR='\(directory)' restart_throwaway_postgres immediate")
    }

    private func remove() async {
        _ = try? await Self.script("PG_THROWAWAY_DIR='\(directory)' stop_throwaway_postgres")
    }

    /// Runs `command` in bash after sourcing the script; returns its standard output. Spawned and waited for
    /// directly (`posix_spawn`, `waitpid` on a thread of its own): the server the script starts outlives the shell,
    /// its output goes to a file, and it inherits no descriptor of the tests beyond 0–2, so nothing of the test's
    /// is held open by it.
    private static func script(_ command: String) async throws -> String {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("passkeyd-cluster-\(UUID()).log").path
        let errors = log + ".err"
        defer {
            try? FileManager.default.removeItem(atPath: log)
            try? FileManager.default.removeItem(atPath: errors)
        }
        let arguments = [
            "/bin/bash", "-c",
            "cd '\(repository.path)' && source scripts/dev/throwaway-postgres.sh && \(command)",
        ]
        let status = await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            DispatchQueue(label: "passkeyd.tests.cluster").async {
                continuation.resume(returning: spawnAndWait(arguments, output: log, errors: errors))
            }
        }
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        guard status == 0 else {
            // What the script said on standard error (why the server did not start), so the failure says why.
            let said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            throw StorageError(.io, "`\(command)` exited with \(status): \(text)\(said)")
        }
        return text
    }

    /// Runs `arguments` (the executable first) with standard output to `output` and standard error to `errors`;
    /// returns its exit status (-1 when it could not run or did not exit).
    private static func spawnAndWait(_ arguments: [String], output: String, errors: String) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // Nothing else of this process reaches the script or the server it starts: a descriptor the tests hold at
        // that instant without FD_CLOEXEC (the write end of another test's `Pipe`, which Foundation creates without
        // it) would stay open in the server for its whole life, and that test's read would never see its end.
        // glibc ≥ 2.34's posix_spawn_file_actions_addclosefrom_np, which Swift's Glibc module does not import
        // (declared only under _GNU_SOURCE): looked up by name. Without it the spawn fails rather than leak.
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return -1 }
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, 3) == 0 else { return -1 }
        let argv = arguments.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
        }
        var pid = pid_t()
        guard posix_spawn(&pid, arguments[0], &actions, nil, argv, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { return -1 }
        }
        // WIFEXITED / WEXITSTATUS, which Swift does not import (macros).
        return status & 0x7f == 0 ? (status >> 8) & 0xff : -1
    }
}
