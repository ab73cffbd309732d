import Foundation
import Storage

/// The PostgreSQL `Store`: a bounded pool of libpq connections, each owned by one serial queue (blocking libpq
/// calls never run on the cooperative pool), statements prepared once per connection.
///
/// Each `write` is one transaction at READ COMMITTED: the consuming operations are single statements that give
/// exactly one winner across any number of connections and nodes (see `PostgresTransaction+Writer.swift`). Each
/// `read` is one REPEATABLE READ READ ONLY transaction, so it sees one snapshot. A transaction that fails with a
/// serialization failure (40001) or a deadlock (40P01) is rolled back and run again, up to `maxAttempts` times
/// in all; then `.busy`. So is one that met a statement prepared before another node changed the schema (0A000
/// "cached plan must not change result type"), after the connection's prepared statements are dropped. A
/// connection lost before COMMIT is `.busy` (nothing was written: the server answers 503, which a client may
/// retry). Lost during COMMIT, the outcome is asked of the database once a read-write server answers again, on a
/// connection of its own after the slot went back to the pool (`CommitResolution`): success if it committed,
/// `.busy` if not. The same server, unrestarted, tells by the transaction id (`txid_status`); a restarted one, or
/// the standby promoted in its place, by the commit marker the transaction inserted in its BEGIN round trip
/// (`CommitMarker`, `InFlightCommit`). Only a database that does not answer for `outcomeResolutionSeconds`, or
/// answers the question with an ERROR, leaves it `.io` (500, outcome unknown). The connection is reopened on next
/// use, and a transaction whose BEGIN met a dead connection (the database restarted since) runs again on a new one.
/// A write of one operation may send its COMMIT with its statement (`writeOperation`); one whose connection then
/// broke before any answer is asked by its commit marker alone (`UnansweredCommit`).
/// `write` returns once COMMIT returned, which with `synchronous_commit = on` (PostgreSQL's default) means the
/// commit record is flushed on the primary (and on synchronous standbys, if the operator configured any).
public final class PostgresStore: Store {
    /// Runs of a transaction, the first included, before a retryable failure is reported.
    public static let maxAttempts = 5

    let pool: PostgresPool
    /// The configuration the store was opened with (password redacted in its description).
    public let configuration: PostgresConfiguration
    /// Whether the schema it migrated to has `commit_markers` (v15; not a test's older schema): writes insert one.
    let marksCommits: Bool

    private init(pool: PostgresPool, configuration: PostgresConfiguration, marksCommits: Bool) {
        self.pool = pool
        self.configuration = configuration
        self.marksCommits = marksCommits
    }

    /// Opens the store: connects once, creates the schema if `configuration.schema` names one, and applies the
    /// pending migrations under an advisory lock (several nodes starting together migrate once).
    /// - Parameter migrations: the schema to migrate to; `PostgresSchema.migrations` except in tests of migration.
    /// - Throws: `.busy` (cannot connect), `.migration` (e.g. the database is newer than this binary).
    public static func open(
        _ configuration: PostgresConfiguration, migrations: [Migration] = PostgresSchema.migrations
    ) async throws(StorageError) -> PostgresStore {
        let pool = PostgresPool(configuration: configuration)
        let schema = configuration.schema
        do {
            try await pool.withConnection { connection in
                try connection.connectIfNeeded()
                try PostgresMigrator.migrate(connection, schema: schema, migrations: migrations)
            }
        } catch {
            await pool.close()
            throw Self.storageError(error)
        }
        return PostgresStore(
            pool: pool, configuration: configuration, marksCommits: migrations.contains(PostgresSchema.commitMarkers))
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) throws -> T) async throws -> T {
        try await pool.withConnection { connection in
            if let value = try Self.singleStatementRead(connection, body) { return value }
            // A read has nothing in doubt (`commit`).
            switch try Self.transaction(connection, writes: false, counters: self.pool.counters, body) {
            case .committed(let value): return value
            case .inDoubt(_, let resolution), .unanswered(let resolution, _): throw resolution.cause
            }
        }
    }

    /// Most reads are one statement (a login's `loginCredential`, a user, the device keys), and one statement sees one
    /// snapshot by itself: so a read first runs outside any transaction, allowed one statement — one round trip
    /// instead of three (BEGIN, the statement, COMMIT). A body that needs a second statement is stopped there and
    /// `nil` returned: the caller runs it again in a REPEATABLE READ transaction (a read body has no effect to
    /// repeat; bodies are already rerun on retries). So is one whose statement met a lost connection, a retryable
    /// failure or a stale prepared statement, which the transaction path handles.
    private static func singleStatementRead<T>(
        _ connection: PostgresConnection, _ body: (PostgresTransaction) throws -> T
    )
        throws -> T?
    {
        connection.resetFailure()
        // Unreachable: reported as it is (the transaction path would only try again).
        try connection.connectIfNeeded()
        connection.limitStatements(to: 1)
        defer { connection.limitStatements(to: nil) }
        do {
            let value = try body(PostgresTransaction(connection: connection, isWrite: false))
            // A body that caught the refusal of its second statement does not get to answer from one.
            return connection.exceededBudget ? nil : value
        } catch {
            if connection.exceededBudget { return nil }
            switch connection.failure {
            case .connectionLost?, .retryable?, .stalePreparedStatement?: return nil
            case .readOnlyServer?, .other?, nil: throw error
            }
        }
    }

    public func write<T: Sendable>(_ body: @escaping @Sendable (any StoreWriter) throws -> T) async throws -> T {
        try await runWrite(admission: nil, body)
    }

    /// `write`, with `admission` asked on the leased slot just before BEGIN: the time queued for a slot (every
    /// connection busy with a slow database) counts against a request's deadline, and a refusal writes nothing.
    public func write<T: Sendable>(
        admission: WriteAdmission, _ body: @escaping @Sendable (any StoreWriter) throws -> T
    ) async throws -> T {
        try await runWrite(admission: admission, body)
    }

    /// `write(admission:_:)` for a body that is one writer operation: an operation that is one statement and the
    /// transaction's first (a login without a hosted login's records, `completeLogin`) sends COMMIT in the pipeline
    /// that carries BEGIN and the statement, so the write is one round trip instead of two
    /// (`PostgresConnection.commitWithNextStatement`). A connection that breaks before that pipeline's first answer
    /// arrives leaves the statement's value unknown: the commit marker decides whether anything was written
    /// (`UnansweredCommit`); rolled back is `.busy` (503), or a run on a new connection when a dead pooled connection
    /// was met; committed is the value `recover` reads back in a transaction of its own, else `.io` (500, outcome
    /// unknown), where `write` would have known the value.
    public func writeOperation<T: Sendable>(
        admission: WriteAdmission?, recover: (@Sendable (any StoreReader) throws -> T?)?,
        _ body: @escaping @Sendable (any StoreWriter) throws -> T
    ) async throws -> T {
        try await runWrite(admission: admission, operation: true, recover: recover, body)
    }

    private func runWrite<T: Sendable>(
        admission: WriteAdmission?, operation: Bool = false, recover: (@Sendable (any StoreReader) throws -> T?)? = nil,
        _ body: @escaping @Sendable (any StoreWriter) throws -> T
    ) async throws -> T {
        var runs = 0
        while true {
            runs += 1
            let outcome = try await pool.withConnection { connection in
                try admission?.admit()
                return try Self.transaction(
                    connection, writes: true, marks: self.marksCommits, commitsWithOperation: operation,
                    deadline: admission?.deadline, counters: self.pool.counters, body)
            }
            switch outcome {
            case .committed(let value):
                return value
            case .inDoubt(let value, let resolution):
                // The slot is back in the pool: the question is asked on a connection of its own (`CommitResolution`).
                try await resolution.resolve(
                    configuration, counters: pool.counters, gate: pool.gate, seconds: Self.outcomeResolutionSeconds)
                return value
            case .unanswered(let resolution, let rerunnable):
                let conclusion = await resolution.conclude(
                    configuration, counters: pool.counters, gate: pool.gate, seconds: Self.outcomeResolutionSeconds)
                if rerunnable, conclusion.verdict == .rolledBack, runs < Self.maxAttempts {
                    // A pooled connection that was dead before the pipeline: nothing ran, as when BEGIN went alone
                    // and met it; the write runs again, on a new connection.
                    pool.counters.count(.connectionLost)
                    continue
                }
                // The statement's value never arrived: a committed write's is read back, when the operation can tell.
                if conclusion.verdict == .committed, let recover, let value = try? await read(recover) {
                    pool.counters.count(.committed)
                    return value
                }
                throw resolution.failure(conclusion, counters: pool.counters)
            }
        }
    }

    /// How a transaction's run on its slot ended: committed, or its connection broke during COMMIT (a write).
    private enum Ended<T: Sendable>: Sendable {
        case committed(T)
        /// The body's value stands if `resolution` finds the transaction committed.
        case inDoubt(T, CommitResolution)
        /// A COMMIT sent with the statement whose connection broke before any answer: the value is unknown.
        /// `rerunnable`: the connection was a pooled one that may have been dead before the pipeline went out (as
        /// `write` runs the transaction again when BEGIN, sent alone, meets one).
        case unanswered(CommitResolution, rerunnable: Bool)
    }

    /// The pool, connection, retry and COMMIT-in-doubt counts of this store (`/metrics`).
    public var statistics: PostgresStatistics {
        let (size, inUse, waiting) = pool.occupancy
        let counters = pool.counters
        return PostgresStatistics(
            poolSize: size, inUse: inUse, waiting: waiting, waits: counters.leaseWaits.load(ordering: .relaxed),
            waitSeconds: Double(counters.leaseWaitNanoseconds.load(ordering: .relaxed)) / 1e9,
            connectionsOpened: counters.connectionsOpened.load(ordering: .relaxed),
            connectFailures: counters.connectFailures.load(ordering: .relaxed),
            retriesConnectionLost: counters.retries(.connectionLost),
            retriesSerialization: counters.retries(.serialization),
            retriesStaleStatement: counters.retries(.staleStatement),
            commitsFoundCommitted: counters.resolutions(.committed),
            commitsFoundRolledBack: counters.resolutions(.rolledBack), commitsUnknown: counters.resolutions(.unknown))
    }

    /// Refuses new work, waits for the transactions in flight, then closes every connection.
    public func close() async {
        await pool.close()
    }

    /// Runs `body` in one transaction on `connection` (on its queue), retrying as the type's comment says; a write's
    /// statements are bounded by `deadline` (`StatementDeadline`), as seen when each attempt begins, and it inserts a
    /// commit marker if `marks`.
    private static func transaction<T>(
        _ connection: PostgresConnection, writes: Bool, marks: Bool = false, commitsWithOperation: Bool = false,
        deadline: ContinuousClock.Instant? = nil, counters: PostgresCounters, _ body: (PostgresTransaction) throws -> T
    ) throws -> Ended<T> {
        var attempt = 1
        // A COMMIT sent in a pipeline is the transaction's own business: the connection's next one starts without.
        defer { connection.pipelinedCommit = nil }
        while true {
            connection.resetFailure()
            var marker: CommitMarker?
            // A pooled connection, believed alive (PostgreSQL may have ended it since its last use).
            let reused = connection.isConnected
            do {
                try connection.connectIfNeeded()
                if writes {
                    // The transaction id, the server's start time and the commit marker come with BEGIN, in the same
                    // round trip: if the connection breaks during COMMIT, they tell whether the commit happened
                    // (`CommitResolution`). A request's deadline bounds the statements in the same round trip (a
                    // second column).
                    let bound = try deadline.flatMap {
                        StatementDeadline.bound(deadline: $0, session: try connection.sessionStatementTimeout())
                    }
                    marker = marks ? CommitMarker() : nil
                    connection.deferTransaction([
                        .init(sql: "BEGIN ISOLATION LEVEL READ COMMITTED", keepsValue: false),
                        .init(
                            sql: WriteStart.sql(marks: marker != nil), keepsValue: true,
                            arguments: WriteStart.arguments(
                                marker: marker, settled: connection.settledMarker, timeoutMilliseconds: bound)),
                    ])
                } else {
                    connection.deferTransaction([
                        .init(sql: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", keepsValue: false)
                    ])
                }
            } catch {
                // Nothing ran yet. A pooled connection found dead is replaced at once (the next attempt connects
                // afresh); a fresh connection that fails means the database is unreachable: the request gets its
                // 503 now, instead of after more attempts that would each wait for `connect_timeout` during a
                // failover (and hammer a database that is starting).
                if connection.failure == .connectionLost, reused, attempt < maxAttempts {
                    attempt += 1
                    counters.count(.connectionLost)
                    continue
                }
                throw error
            }
            // BEGIN (and a write's markers and select) is deferred: it goes to the server in one pipeline with the
            // body's first statement (`PostgresConnection+Pipeline.swift`).
            do {
                // Only a transaction that can tell an unanswered COMMIT's outcome (its marker) sends one with a statement.
                let transaction = PostgresTransaction(
                    connection: connection, isWrite: writes, commitsWithOperation: commitsWithOperation && marker != nil
                )
                let value = try body(transaction)
                if connection.hasDeferred {
                    // The body ran no statement: no transaction began, there is nothing to commit.
                    connection.discardDeferred()
                    return .committed(value)
                }
                let inFlight = writes ? InFlightCommit(beginValue: connection.deferredValue, marker: marker) : nil
                switch connection.pipelinedCommit {
                case .committed?:
                    connection.settledMarker = marker
                    return .committed(value)
                case .answerLost?:
                    // The statement's value and the transaction's id arrived, COMMIT's answer did not: as for a COMMIT
                    // sent alone.
                    let cause = connection.firstError ?? StorageError(.busy, "PostgreSQL connection lost during COMMIT")
                    return .inDoubt(value, try inDoubt(inFlight, cause: cause, counters: counters))
                case .unanswered?:
                    // The body caught its statement's error and went on: as if it had thrown it.
                    throw connection.firstError ?? StorageError(.busy, "PostgreSQL connection lost")
                case .requested?, nil:
                    break
                }
                switch try commit(connection, writes: writes, inFlight: inFlight, counters: counters) {
                case .tag(let tag):
                    // COMMIT of a transaction that a failed statement aborted (the body caught the error) rolls back.
                    guard tag == "COMMIT" else {
                        throw StorageError(
                            .internalFailure, "transaction was aborted by an earlier error; COMMIT said \(tag)")
                    }
                    // Its marker is no longer needed (and the one before it went with this transaction).
                    if writes { connection.settledMarker = marker }
                    return .committed(value)
                case .inDoubt(let resolution):
                    return .inDoubt(value, resolution)
                }
            } catch {
                let failure = connection.failure
                if connection.pipelinedCommit == .unanswered, let marker {
                    // COMMIT went with the statement and no answer came back: the marker tells whether it committed.
                    connection.discardDeferred()
                    let rerunnable =
                        failure == .connectionLost && reused && !connection.beginAnswered && attempt < maxAttempts
                    let cause = (error as? StorageError) ?? StorageError(.busy, "PostgreSQL connection lost: \(error)")
                    return .unanswered(
                        CommitResolution(question: .unanswered(UnansweredCommit(marker: marker)), cause: cause),
                        rerunnable: rerunnable)
                }
                // A body that failed before its first statement sent nothing: there is no transaction to roll back.
                let begun = !connection.hasDeferred
                connection.discardDeferred()
                if begun, connection.isConnected { _ = try? connection.command("ROLLBACK") }
                if failure == .connectionLost, reused, !connection.beginAnswered, attempt < maxAttempts {
                    // The pooled connection was found dead by the pipeline that carried BEGIN: nothing began, as
                    // when BEGIN went on its own; the transaction runs again on a new connection.
                    attempt += 1
                    counters.count(.connectionLost)
                    continue
                }
                if failure == .stalePreparedStatement, attempt < maxAttempts {
                    // Another node migrated the schema under this connection's prepared statements: prepare
                    // them again and run the transaction once more (nothing was committed).
                    attempt += 1
                    counters.count(.staleStatement)
                    if (try? connection.forgetPreparedStatements()) == nil { connection.disconnect() }
                    continue
                }
                if failure == .retryable, attempt < maxAttempts {
                    attempt += 1
                    counters.count(.serialization)
                    // A short, growing, jittered pause so that deadlocked peers do not collide again at once.
                    usleep(UInt32.random(in: 500...2_000) * UInt32(attempt))
                    continue
                }
                throw error
            }
        }
    }

    /// How long a transaction whose connection broke during COMMIT waits for a database that does not answer to say
    /// whether it committed (well under the server's request deadline); one that answers ends the wait at once.
    static let outcomeResolutionSeconds: TimeInterval = 10

    /// What COMMIT gave: its tag, or a write whose connection broke meanwhile.
    private enum CommitAnswer {
        case tag(String)
        case inDoubt(CommitResolution)
    }

    /// COMMIT. A connection lost meanwhile may or may not have committed: the outcome is asked of the database
    /// (`InFlightCommit`) by `write`, once the slot is back in the pool (`CommitResolution`).
    /// A read-only transaction has nothing in doubt: its lost COMMIT is `.busy` (503), the read may be repeated.
    private static func commit(
        _ connection: PostgresConnection, writes: Bool, inFlight: InFlightCommit?, counters: PostgresCounters
    ) throws(StorageError) -> CommitAnswer {
        do {
            return .tag(try connection.command("COMMIT"))
        } catch {
            guard connection.failure == .connectionLost else { throw error }
            guard writes else {
                throw StorageError(
                    .busy, "PostgreSQL connection lost at a read's COMMIT (nothing written): \(error.reason)")
            }
            return .inDoubt(try inDoubt(inFlight, cause: error, counters: counters))
        }
    }

    /// The question for a write whose COMMIT's answer was lost (`cause`), or `.io` when its BEGIN round trip gave no
    /// transaction to ask about.
    private static func inDoubt(
        _ inFlight: InFlightCommit?, cause: StorageError, counters: PostgresCounters
    ) throws(StorageError) -> CommitResolution {
        guard let inFlight else {
            counters.count(.unknown)
            throw StorageError(.io, "PostgreSQL connection lost during COMMIT, outcome unknown: \(cause.reason)")
        }
        return CommitResolution(inFlight: inFlight, cause: cause)
    }

    private static func storageError(_ error: any Error) -> StorageError {
        (error as? StorageError) ?? StorageError(.internalFailure, "\(error)")
    }
}
