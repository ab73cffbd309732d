import Foundation
import Storage
import Testing

@testable import StoragePostgres

@Suite("PostgreSQL failures: what a SQLSTATE means for the request")
struct PostgresFailureTests {
    static func error(_ state: String) -> StorageError {
        let failure = PostgresFailure(sqlState: state, connectionBroken: false)
        return PostgresFailure.error(sqlState: state, constraint: nil, message: "message", failure: failure)
    }

    @Test(
        "a server that cannot take writes (class 53, 25006) is `.unavailable`, saying why: the transaction aborted",
        arguments: [
            ("53100", StorageError.Unavailability.diskFull), ("53000", .insufficientResources),
            ("53200", .insufficientResources), ("53400", .insufficientResources), ("25006", .readOnly),
        ])
    func unavailable(state: String, unavailability: StorageError.Unavailability) {
        let error = Self.error(state)
        #expect(error.code == .unavailable, "\(error)")
        #expect(error.unavailability == unavailability, "\(error)")
        #expect(error.reason.contains("PostgreSQL \(state)"), "\(error)")
    }

    @Test("too many connections and a server starting or stopping stay `.busy`; a system I/O error (58) stays `.io`")
    func others() {
        #expect(Self.error("53300").code == .busy)
        #expect(Self.error("57P03").code == .busy)
        #expect(PostgresFailure(sqlState: "57P03", connectionBroken: false) == .connectionLost)
        #expect(Self.error("58030").code == .io)
        #expect(Self.error("XX001").code == .corrupt)
    }

    @Test("a connection refused by target_session_attrs because the server does not take writes is read-only")
    func readOnlyAtConnect() {
        #expect(
            PostgresConnection.unavailability(
                connectMessage: #"connection to server at "127.0.0.1", port 5432 failed: session is read-only"#)
                == .readOnly)
        #expect(
            PostgresConnection.unavailability(
                connectMessage: #"connection to server at "db2", port 5432 failed: server is in hot standby mode"#)
                == .readOnly)
        #expect(
            PostgresConnection.unavailability(
                connectMessage: #"connection to server at "db1", port 5432 failed: Connection refused"#) == nil)
    }

    @Test(
        "a statement after a failed one (25P02) is thrown as the first failure: a full disk stays a full disk",
        .enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.skipReason))
    func abortedTransactionKeepsItsCause() throws {
        let connection = PostgresConnection(
            configuration: try PostgresTestDatabase.configuration(poolSize: 1), counters: PostgresCounters())
        defer { connection.disconnect() }
        try connection.connectIfNeeded()
        try connection.command("BEGIN")
        // As PostgreSQL answers an INSERT that cannot extend its file; the body catches it and goes on (a
        // compensating DELETE), whose statement the aborted transaction refuses with 25P02.
        let raise = "DO $$ BEGIN RAISE EXCEPTION 'could not extend file' USING ERRCODE = 'disk_full'; END $$"
        for sql in [raise, "SELECT 1"] {
            do {
                try connection.command(sql)
                Issue.record("\(sql) succeeded")
            } catch {
                #expect(error.unavailability == .diskFull, "\(sql): \(error)")
                #expect(error.reason.contains("53100"), "\(sql): \(error)")
            }
        }
        #expect(connection.failure == .other)
        try connection.command("ROLLBACK")
    }

    @Test(
        "a database set read-only (default_transaction_read_only) refuses every write, the heartbeat included, as `.unavailable` read-only",
        .enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.skipReason))
    func readOnlyDatabase() async throws {
        let name = "ro_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await PostgresTestDatabase.withStore(poolSize: 1) { administrator, _ in
            try await administrator.executeForTesting("CREATE DATABASE \(name)")
            do {
                try await Self.refusesWrites(database: name, administrator: administrator)
            } catch {
                try? await administrator.executeForTesting("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
                throw error
            }
            try await administrator.executeForTesting("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
        }
    }

    /// Migrates a store on `database`, sets the database read-only, ends the store's session, and checks that a
    /// write and the heartbeat are refused as read-only: by libpq at connect (`target_session_attrs=read-write`, the
    /// default) or by the server (25006) on a session that was writable when it began.
    static func refusesWrites(database: String, administrator: PostgresStore) async throws {
        let base = try #require(PostgresTestDatabase.url)
        var url = try #require(URLComponents(string: base))
        url.path = "/\(database)"
        var configuration = try PostgresConfiguration(try #require(url.string), environment: [:])
        configuration.poolSize = 1
        configuration.applicationName = "passkeyd-tests-\(database)"
        let store = try await PostgresStore.open(configuration)
        try await store.write { try $0.recordHeartbeat(at: Date()) }
        try await administrator.executeForTesting("ALTER DATABASE \(database) SET default_transaction_read_only = on")
        // New sessions start read-only: the store's own is ended, so that it makes one.
        try await administrator.executeForTesting(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '\(configuration.applicationName)'"
        )
        for body in ["a sign-up's write", "the heartbeat"] {
            do {
                try await store.write { writer in
                    if body == "the heartbeat" {
                        try writer.recordHeartbeat(at: Date())
                    } else {
                        _ = try writer.appendSecurityEvent(
                            SecurityEvent(occurredAt: Date(), storedKind: "signup", outcome: "success"))
                    }
                }
                Issue.record("\(body) was written to a read-only database")
            } catch let error as StorageError {
                #expect(error.code == .unavailable, "\(body): \(error)")
                #expect(error.unavailability == .readOnly, "\(body): \(error)")
            }
        }
        await store.close()
    }
}
