import Foundation
import Storage
import StoragePostgres
import Synchronization
import Testing

/// The PostgreSQL server the tests use: `PASSKEYD_TEST_DATABASE_URL` (set by `make test`, which starts a
/// throwaway cluster when it is not given). Unset, every test that needs a server is skipped with this reason.
enum PostgresTestDatabase {
    static let url = ProcessInfo.processInfo.environment["PASSKEYD_TEST_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }

    static var isConfigured: Bool { url != nil }

    static let skipReason: Comment =
        "PASSKEYD_TEST_DATABASE_URL is not set: PostgreSQL tests need a server (`make test` starts a throwaway one)"

    /// A configuration for a fresh schema of its own (created by the store at open), so tests are independent.
    static func configuration(poolSize: Int = 4, applicationName: String = "passkeyd-tests") throws
        -> PostgresConfiguration
    {
        guard let url else { throw StorageError(.invalidConfiguration, "PASSKEYD_TEST_DATABASE_URL is not set") }
        var configuration = try PostgresConfiguration(url, environment: [:])
        configuration.schema = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        configuration.poolSize = poolSize
        configuration.applicationName = applicationName
        return configuration
    }

    /// Drops the schema of `configuration` (and everything in it).
    static func drop(_ configuration: PostgresConfiguration) async {
        await PostgresStore.dropSchemaForTesting(configuration)
    }

    /// Ends every server session of `configuration`'s `applicationName` (as a database restart or an administrator
    /// would), from a connection of its own.
    static func terminateSessions(of configuration: PostgresConfiguration) async throws {
        var admin = configuration
        admin.applicationName = "passkeyd-tests-admin"
        admin.poolSize = 1
        let killer = try await PostgresStore.open(admin)
        try await killer.executeForTesting(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '\(configuration.applicationName)'"
        )
        await killer.close()
    }

    /// Runs `operation` and ends the sessions of `configuration` (`terminateSessions`) where it calls its `pause`
    /// (which blocks until they have ended); returns the `StorageError` the operation failed with, or nil.
    static func endingSessions(
        of configuration: PostgresConfiguration,
        during operation: @escaping @Sendable (_ pause: @escaping @Sendable () -> Void) async throws -> Void
    ) async throws -> StorageError? {
        let phase = Mutex(0)  // 1: the operation paused; 2: its sessions were ended
        let pause: @Sendable () -> Void = {
            phase.withLock { $0 = 1 }
            while phase.withLock({ $0 }) != 2 { usleep(1_000) }
        }
        let outcome = Task { () -> StorageError? in
            do {
                try await operation(pause)
                return nil
            } catch {
                return error as? StorageError
            }
        }
        while phase.withLock({ $0 }) != 1 { try await Task.sleep(for: .milliseconds(2)) }
        try await terminateSessions(of: configuration)
        phase.withLock { $0 = 2 }
        return await outcome.value
    }

    /// Opens a store on a fresh schema (with `serverOptions`, and `applicationName` if given), runs `body`, closes
    /// the store and drops the schema.
    static func withStore(
        poolSize: Int = 4, serverOptions: String? = nil, applicationName: String? = nil,
        _ body: (PostgresStore, PostgresConfiguration) async throws -> Void
    ) async throws {
        var configuration = try configuration(poolSize: poolSize)
        configuration.serverOptions = serverOptions
        if let applicationName { configuration.applicationName = applicationName }
        let store = try await PostgresStore.open(configuration)
        do {
            try await body(store, configuration)
        } catch {
            await store.close()
            await drop(configuration)
            throw error
        }
        await store.close()
        await drop(configuration)
    }
}
