import Foundation
import Storage
import Testing

@testable import StoragePostgres

/// A request's deadline bounds the statements of its write (`WriteAdmission.deadline`, `StatementDeadline`).
@Suite("A write's statements are bounded by its request's deadline, never beyond the operator's statement_timeout")
struct StatementDeadlineTests {
    @Test("the time left in whole milliseconds, rounded up, at least 1")
    func milliseconds() {
        #expect(StatementDeadline.milliseconds(left: .seconds(2)) == 2_000)
        #expect(StatementDeadline.milliseconds(left: .microseconds(1_500)) == 2)
        #expect(StatementDeadline.milliseconds(left: .nanoseconds(1)) == 1)
        #expect(StatementDeadline.milliseconds(left: .zero) == 1)
        #expect(StatementDeadline.milliseconds(left: .seconds(-3)) == 1)
        #expect(StatementDeadline.milliseconds(left: .milliseconds(-1)) == 1)
        // A duration whose milliseconds do not fit in 64 bits stays a bound, not an overflow.
        #expect(StatementDeadline.milliseconds(left: .seconds(Int64.max / 10)) == Int64.max / 1_000)
    }

    @Test("set only when the time left is shorter than the session's own statement_timeout (0: none)")
    func column() {
        let now = ContinuousClock.now
        #expect(
            StatementDeadline.column(deadline: now + .milliseconds(500), now: now, session: 0)
                == "set_config('statement_timeout', '500', true)")
        #expect(
            StatementDeadline.column(deadline: now + .milliseconds(500), now: now, session: 60_000)
                == "set_config('statement_timeout', '500', true)")
        #expect(StatementDeadline.column(deadline: now + .seconds(30), now: now, session: 1_000) == nil)
        #expect(StatementDeadline.column(deadline: now + .seconds(1), now: now, session: 1_000) == nil)
        #expect(
            StatementDeadline.column(deadline: now - .seconds(1), now: now, session: 1_000)
                == "set_config('statement_timeout', '1', true)")
    }

    /// Writes the auth session `id` and sleeps `sleep` seconds in the same transaction, under `admission`.
    static func write(
        _ store: PostgresStore, _ id: String, sleeping sleep: Double, admission: WriteAdmission?
    ) async throws {
        let body: @Sendable (any StoreWriter) throws -> Void = { writer in
            try writer.insertAuthSession(AuthSession.sample(id))
            _ = try (writer as? PostgresTransaction)?.connection.execute("SELECT pg_sleep(\(sleep))")
        }
        if let admission {
            try await store.write(admission: admission, body)
        } else {
            try await store.write(body)
        }
    }

    static func isStatementTimeout(_ error: any Error) -> Bool {
        (error as? StorageError)?.code == .busy && "\(error)".contains("57014")
    }

    @Test(
        "a statement still running at the deadline fails then: .busy (503), nothing kept, the session's setting back after",
        .enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.skipReason))
    func deadlineEndsAStuckStatement() async throws {
        try await PostgresTestDatabase.withStore(poolSize: 1) { store, _ in
            let started = ContinuousClock.now
            await #expect {
                try await Self.write(
                    store, "stuck", sleeping: 20, admission: WriteAdmission(deadline: .now + .milliseconds(500)) {})
            } throws: { Self.isStatementTimeout($0) }
            let took = ContinuousClock.now - started
            #expect(took < .seconds(15), "the statement ran for \(took)")
            #expect(try await store.read { try $0.authSession(id: "stuck") } == nil)
            // SET LOCAL: the pool's connection is back at the session's own setting (none) for the next transaction.
            let setting = try await store.read { reader in
                try (reader as? PostgresTransaction)?.connection.simpleValue("SHOW statement_timeout")
            }
            #expect(setting == "0")
            // A write with time enough, and one outside any request (no admission), are not cut short.
            try await Self.write(
                store, "in-time", sleeping: 0.3, admission: WriteAdmission(deadline: .now + .seconds(30)) {})
            try await Self.write(store, "housekeeping", sleeping: 0.3, admission: nil)
            #expect(try await store.read { try $0.authSession(id: "in-time") }?.id == "in-time")
            #expect(try await store.read { try $0.authSession(id: "housekeeping") }?.id == "housekeeping")
        }
    }

    @Test(
        "the operator's shorter statement_timeout stays: a far deadline does not loosen it",
        .enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.skipReason))
    func operatorsShorterTimeoutStays() async throws {
        try await PostgresTestDatabase.withStore(
            poolSize: 1, serverOptions: "-c statement_timeout=1s"
        ) {
            store, _ in
            let started = ContinuousClock.now
            await #expect {
                try await Self.write(
                    store, "operator-bound", sleeping: 20, admission: WriteAdmission(deadline: .now + .seconds(60)) {})
            } throws: { Self.isStatementTimeout($0) }
            #expect(ContinuousClock.now - started < .seconds(15))
            let kept = try await store.read { try $0.authSession(id: "operator-bound") }
            #expect(kept == nil)
        }
    }
}
