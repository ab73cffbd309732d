import Foundation
import Storage
import Synchronization
import Testing

@testable import StoragePostgres

/// A login's write as one operation (`Store.writeOperation`): its COMMIT goes in the pipeline that carries BEGIN, the
/// write's start and the login statement, after a Flush (`PostgresConnection.commitWithNextStatement`). One round trip;
/// and every way that pipeline can end: committed, the statement refused, the COMMIT's answer lost (the statement's
/// value known), and every answer lost (`UnansweredCommit`: the commit marker decides).
@Suite("A login's COMMIT in the pipeline of its statement")
struct PipelinedCommitTests {
    static let admission = RoundTripTests.admission

    /// Writes user 1 and its credential.
    static func seed(_ store: PostgresStore) async throws {
        try await store.write { try $0.insertUser(RoundTripTests.user(1), credential: RoundTripTests.credential(1)) }
    }

    /// The login of session `id`, counter `count` → `count + 1`, refresh token hash of `token`s.
    static func login(_ id: String, count: UInt32, token: UInt8) -> LoginCompletion {
        RoundTripTests.completion(id, count: count, token: token)
    }

    /// What a login of session `id` left: its session spent, user 1's counter, its refresh token present.
    static func kept(_ store: PostgresStore, session id: String, token: UInt8) async throws
        -> (spent: Bool, signCount: UInt32?, refresh: Bool)
    {
        try await store.read { reader in
            (
                try reader.isAuthSessionSpent(id: id),
                try reader.credential(id: RoundTripTests.credential(1).credentialID)?.signCount,
                try reader.refreshToken(hash: [UInt8](repeating: token, count: 32)) != nil
            )
        }
    }

    /// Makes a session id's spending wait for `hold`: at its COMMIT (`deferred`: a deferred constraint trigger) or
    /// in the login statement itself.
    static func hold(
        _ id: String, of store: PostgresStore, by hold: CommitInDoubtTests.CommitHold, deferred: Bool
    ) async throws {
        try await store.executeForTesting(
            """
            CREATE FUNCTION hold_spending() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN IF NEW.id = '\(id)' THEN PERFORM pg_advisory_xact_lock(\(hold.key)); END IF; RETURN NULL; END $$
            """)
        try await store.executeForTesting(
            deferred
                ? """
                CREATE CONSTRAINT TRIGGER hold_spending AFTER INSERT ON spent_auth_sessions
                DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION hold_spending()
                """
                : """
                CREATE TRIGGER hold_spending AFTER INSERT ON spent_auth_sessions
                FOR EACH ROW EXECUTE FUNCTION hold_spending()
                """)
    }

    /// Starts the login of session `id` as one operation; returns it with the socket of its connection once the
    /// server waits for `hold` (in its COMMIT or in its statement).
    static func heldLogin(
        _ store: PostgresStore, _ id: String, count: UInt32, token: UInt8, held hold: CommitInDoubtTests.CommitHold,
        runs: Counter = Counter(), recovers: Bool = false
    ) async throws -> (Task<LoginCompletion.Outcome, any Error>, Int32) {
        let socket = Mutex<Int32?>(nil)
        var recover: (@Sendable (any StoreReader) throws -> LoginCompletion.Outcome?)?
        if recovers {
            let completion = login(id, count: count, token: token)
            recover = { @Sendable reader in try completion.recordedOutcome(in: reader) }
        }
        let write = Task {
            try await store.writeOperation(admission: admission(), recover: recover) { writer in
                runs.increment()
                socket.withLock { $0 = $0 ?? (writer as? PostgresTransaction)?.connection.socketDescriptor }
                return try writer.completeLogin(login(id, count: count, token: token))
            }
        }
        var waiting = false
        for _ in 0..<3_000 where !waiting {
            try await Task.sleep(for: .milliseconds(10))
            waiting = try hold.isWaitedFor()
        }
        #expect(waiting, "the login of \(id) did not reach the hold within 30 s")
        return (write, try #require(socket.withLock { $0 }))
    }

    @Test(
        "a login's write is one round trip when it is one operation; each commit settles its marker as before",
        .enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.skipReason))
    func oneRoundTrip() async throws {
        try await PostgresTestDatabase.withStore(poolSize: 1) { store, configuration in
            try await Self.seed(store)
            var trips: [Int] = []
            for n in 0..<3 {
                var outcome: LoginCompletion.Outcome?
                trips.append(
                    try await RoundTripTests.count(store) {
                        outcome = try await store.writeOperation(admission: Self.admission(), recover: nil) {
                            try $0.completeLogin(Self.login("one-\(n)", count: UInt32(n), token: UInt8(n + 1)))
                        }
                    })
                #expect(outcome == .stored)
                let kept = try await Self.kept(store, session: "one-\(n)", token: UInt8(n + 1))
                #expect(kept.spent && kept.signCount == UInt32(n + 1) && kept.refresh)
            }
            print("round trips per login write as one operation, runs 1-3: \(trips)")
            // Cold: the session's statement timeout is read once; then BEGIN, the start, the statement (prepared in
            // the pipeline) and COMMIT in one.
            #expect(trips[0] <= 2, "the first write: \(trips[0]) round trips")
            #expect(trips[1] == 1 && trips[2] == 1, "warm writes: \(trips)")
            // The connection's markers: each write deleted the one before (`CommitMarker`), as with COMMIT alone.
            #expect(try CommitMarkerTests.value(configuration, "SELECT count(*) FROM commit_markers") == "1")
            #expect(store.statistics.commitsFoundCommitted + store.statistics.commitsUnknown == 0)
            // A second operation in the same body is refused, never run after the COMMIT that went with the first.
            await #expect(throws: StorageError.self) {
                try await store.writeOperation(admission: Self.admission(), recover: nil) { writer in
                    _ = try writer.completeLogin(Self.login("one-3", count: 3, token: 4))
                    try writer.insertAuthSession(AuthSession.sample("after"))
                }
            }
            #expect(try await store.read { try $0.authSession(id: "after") } == nil)
        }
    }

    @Test(
        "the statement refused in the pipeline: PostgreSQL skips the COMMIT, nothing is kept, the connection serves the next write",
        .enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.skipReason))
    func refusedStatement() async throws {
        try await PostgresTestDatabase.withStore(poolSize: 1) { store, _ in
            try await Self.seed(store)
            _ = try await store.writeOperation(admission: Self.admission(), recover: nil) {
                try $0.completeLogin(Self.login("first", count: 0, token: 7))
            }
            // The same refresh token hash again: the statement fails on its primary key.
            let error = await #expect(throws: StorageError.self) {
                try await store.writeOperation(admission: Self.admission(), recover: nil) {
                    try $0.completeLogin(Self.login("second", count: 1, token: 7))
                }
            }
            #expect(error?.code == .conflict, "\(String(describing: error))")
            let kept = try await Self.kept(store, session: "second", token: 7)
            #expect(!kept.spent && kept.signCount == 1, "the refused login's session or counter was kept: \(kept)")
            let outcome = try await store.writeOperation(admission: Self.admission(), recover: nil) {
                try $0.completeLogin(Self.login("third", count: 1, token: 8))
            }
            #expect(outcome == .stored)
            // A session already spent is an answer, not a failure: it commits (the marker), and reads as before.
            let again = try await store.writeOperation(admission: Self.admission(), recover: nil) {
                try $0.completeLogin(Self.login("third", count: 2, token: 9))
            }
            #expect(again == .sessionGone)
        }
    }

    @Test(
        "the COMMIT's answer lost on the client's side, the server commits: the statement's value stands (stored)",
        .enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.skipReason))
    func answerLostCommitted() async throws {
        try await PostgresTestDatabase.withStore(poolSize: 1) { store, configuration in
            try await Self.seed(store)
            let hold = try CommitInDoubtTests.CommitHold(configuration)
            defer { hold.release() }
            try await Self.hold("slow", of: store, by: hold, deferred: true)
            let (login, socket) = try await Self.heldLogin(store, "slow", count: 0, token: 3, held: hold)
            // The statement's answer arrived (the Flush); COMMIT runs and waits for the hold. Break the connection.
            #expect(shutdown(socket, Int32(SHUT_RDWR)) == 0)
            hold.release()
            #expect(try await login.value == .stored)
            let kept = try await Self.kept(store, session: "slow", token: 3)
            #expect(kept.spent && kept.signCount == 1 && kept.refresh)
            #expect(store.statistics.commitsFoundCommitted == 1)
            #expect(store.statistics.commitsFoundRolledBack + store.statistics.commitsUnknown == 0)
        }
    }

    @Test(
        "the server's session ends during the pipelined COMMIT: rolled back, .busy (503), nothing kept",
        .enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.skipReason))
    func answerLostRolledBack() async throws {
        let name = "passkeyd-pipelined-commit-\(UInt32.random(in: 0...UInt32.max))"
        try await PostgresTestDatabase.withStore(poolSize: 1, applicationName: name) { store, configuration in
            try await Self.seed(store)
            let hold = try CommitInDoubtTests.CommitHold(configuration)
            defer { hold.release() }
            try await Self.hold("slow", of: store, by: hold, deferred: true)
            let (login, _) = try await Self.heldLogin(store, "slow", count: 0, token: 3, held: hold)
            try await PostgresTestDatabase.terminateSessions(of: configuration)
            let error = await #expect(throws: StorageError.self) { try await login.value }
            #expect(error?.code == .busy, "\(String(describing: error))")
            let kept = try await Self.kept(store, session: "slow", token: 3)
            #expect(!kept.spent && kept.signCount == 0 && !kept.refresh)
            #expect(store.statistics.commitsFoundRolledBack == 1)
        }
    }

    @Test(
        "a pooled connection the server ended before the pipeline: the marker says nothing ran, the login runs again on a new connection",
        .enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.skipReason))
    func deadPooledConnection() async throws {
        let name = "passkeyd-pipelined-dead-\(UInt32.random(in: 0...UInt32.max))"
        try await PostgresTestDatabase.withStore(poolSize: 1, applicationName: name) { store, configuration in
            try await Self.seed(store)
            _ = try await store.writeOperation(admission: Self.admission(), recover: nil) {
                try $0.completeLogin(Self.login("first", count: 0, token: 1))
            }
            try await PostgresTestDatabase.terminateSessions(of: configuration)
            let runs = Counter()
            let outcome = try await store.writeOperation(admission: Self.admission(), recover: nil) { writer in
                runs.increment()
                return try writer.completeLogin(Self.login("second", count: 1, token: 2))
            }
            #expect(outcome == .stored)
            #expect(runs.value == 2)
            #expect(store.statistics.retriesConnectionLost == 1)
            let kept = try await Self.kept(store, session: "second", token: 2)
            #expect(kept.spent && kept.signCount == 2 && kept.refresh)
        }
    }

    @Test(
        "every answer lost while the statement runs, the server then commits: the question waits for the old transaction and finds its marker; the operation's recovery reads back .stored, without one the answer is .io (outcome unknown)",
        .enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.skipReason),
        arguments: [true, false])
    func unansweredCommitted(recovers: Bool) async throws {
        try await PostgresTestDatabase.withStore(poolSize: 1) { store, configuration in
            try await Self.seed(store)
            let hold = try CommitInDoubtTests.CommitHold(configuration)
            defer { hold.release() }
            try await Self.hold("slow", of: store, by: hold, deferred: false)
            let runs = Counter()
            let (login, socket) = try await Self.heldLogin(
                store, "slow", count: 0, token: 3, held: hold, runs: runs, recovers: recovers)
            // The client stops reading before any answer (the server has buffered BEGIN's and the start's until the
            // Flush); the server's session lives on and will send into the void, then commit.
            #expect(shutdown(socket, Int32(SHUT_RD)) == 0)
            // The question's probe waits for the old transaction's uncommitted marker (a transaction lock).
            var probing = false
            for _ in 0..<3_000 where !probing {
                try await Task.sleep(for: .milliseconds(10))
                probing =
                    try CommitMarkerTests.value(
                        configuration,
                        "SELECT count(*) FROM pg_locks WHERE locktype = 'transactionid' AND NOT granted") != "0"
            }
            #expect(probing, "no question waited for the old transaction within 30 s")
            hold.release()
            if recovers {
                #expect(try await login.value == .stored)
                #expect(store.statistics.commitsFoundCommitted == 1)
                #expect(store.statistics.commitsUnknown == 0)
            } else {
                let error = await #expect(throws: StorageError.self) { try await login.value }
                #expect(error?.code == .io, "\(String(describing: error))")
                #expect(store.statistics.commitsUnknown == 1)
            }
            #expect(runs.value == 1, "a write that committed ran again")
            let kept = try await Self.kept(store, session: "slow", token: 3)
            #expect(kept.spent && kept.signCount == 1 && kept.refresh)
        }
    }

    @Test(
        "the server's session ends while the statement runs: its answers before the FATAL arrive, the marker says rolled back: .busy, not run again",
        .enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.skipReason))
    func unansweredRolledBack() async throws {
        let name = "passkeyd-pipelined-fatal-\(UInt32.random(in: 0...UInt32.max))"
        try await PostgresTestDatabase.withStore(poolSize: 1, applicationName: name) { store, configuration in
            try await Self.seed(store)
            let hold = try CommitInDoubtTests.CommitHold(configuration)
            defer { hold.release() }
            try await Self.hold("slow", of: store, by: hold, deferred: false)
            let runs = Counter()
            let (login, _) = try await Self.heldLogin(store, "slow", count: 0, token: 3, held: hold, runs: runs)
            try await PostgresTestDatabase.terminateSessions(of: configuration)
            hold.release()
            let error = await #expect(throws: StorageError.self) { try await login.value }
            #expect(error?.code == .busy, "\(String(describing: error))")
            #expect(runs.value == 1)
            let kept = try await Self.kept(store, session: "slow", token: 3)
            #expect(!kept.spent && kept.signCount == 0 && !kept.refresh)
            #expect(store.statistics.commitsFoundRolledBack == 1)
        }
    }
}

extension PipelinedCommitTests {
    @Test(
        "the marker's question: absent is final (its row fences a late insert of the same marker off), present is committed",
        .enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.skipReason))
    func questionFences() async throws {
        try await PostgresTestDatabase.withStore(poolSize: 1) { _, configuration in
            let asking = try Self.connected(configuration)
            defer { asking.disconnect() }
            let absent = UnansweredCommit(marker: CommitMarker())
            #expect(try absent.ask(asking) == .rolledBack)
            // The old transaction, had its pipeline still arrived, inserts its marker: refused, it cannot commit.
            let late = try Self.connected(configuration)
            defer { late.disconnect() }
            let error = #expect(throws: StorageError.self) {
                try late.command("BEGIN")
                try late.command(absent.marker.insert)
            }
            #expect(error?.code == .conflict, "\(String(describing: error))")
            _ = try? late.command("ROLLBACK")
            // A marker that a transaction committed is found, and nothing is added.
            let committed = UnansweredCommit(marker: CommitMarker())
            try late.command("BEGIN")
            try late.command(committed.marker.insert)
            try late.command("COMMIT")
            #expect(try committed.ask(asking) == .committed)
            #expect(try CommitMarkerTests.value(configuration, "SELECT count(*) FROM commit_markers") == "2")
        }
    }
}

extension PipelinedCommitTests {
    @Test(
        "the marker's question waits for a transaction still holding the marker: a timed-out wait (statement_timeout, or the operator's lock_timeout) is in progress, asked again, never a verdict",
        .enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.skipReason))
    func questionWaitsForTheOldTransaction() async throws {
        try await PostgresTestDatabase.withStore(poolSize: 1) { _, configuration in
            let question = UnansweredCommit(marker: CommitMarker())
            // The old transaction: its marker inserted, not yet committed.
            let old = try Self.connected(configuration)
            defer { old.disconnect() }
            try old.command("BEGIN")
            try old.command(question.marker.insert)
            let asking = try Self.connected(configuration)
            defer { asking.disconnect() }
            #expect(try question.ask(asking) == .inProgress, "the probe's own statement_timeout")
            var short = configuration
            short.serverOptions = "-c lock_timeout=100"
            let impatient = PostgresConnection(configuration: short, counters: PostgresCounters())
            defer { impatient.disconnect() }
            try impatient.connectIfNeeded()
            impatient.resetFailure()
            #expect(try question.ask(impatient) == .inProgress, "the operator's lock_timeout")
            try old.command("COMMIT")
            asking.resetFailure()
            #expect(try question.ask(asking) == .committed)
        }
    }
}

extension PipelinedCommitTests {
    /// A connection of its own to the test database, connected (the caller disconnects it).
    static func connected(_ configuration: PostgresConfiguration) throws -> PostgresConnection {
        let connection = PostgresConnection(configuration: configuration, counters: PostgresCounters())
        try connection.connectIfNeeded()
        return connection
    }
}
