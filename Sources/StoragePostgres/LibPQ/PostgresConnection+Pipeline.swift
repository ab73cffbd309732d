import Foundation
import Storage
internal import CLibPQ

/// Statements sent ahead of another, in one libpq pipeline (`PQenterPipelineMode`): a transaction's BEGIN round trip
/// (BEGIN, then a write's start: the commit markers and its select, `WriteStart`) is not sent on its own but deferred
/// (`deferTransaction`) and goes to the server together with the body's first statement, each prepared statement's
/// `PQprepare` with it on its first use in a session. One round trip instead of two or three; what the server runs, and in which order, is unchanged.
///
/// The answers are read in order after one sync. A statement that fails aborts what follows it up to the sync
/// (`PGRES_PIPELINE_ABORTED`): the first failure is what the call throws, as a statement after a failed one in a
/// transaction would. After an explicit BEGIN the transaction stays open, aborted, until the caller's ROLLBACK.
///
/// A write that ends with its first statement may send COMMIT in the same pipeline (`commitWithNextStatement`): BEGIN,
/// the write's start, the statement, a Flush, COMMIT, then the sync; one round trip for the whole write. The Flush
/// makes the server send every answer up to the statement's (the transaction's id among them) before it runs COMMIT,
/// so that a connection that breaks during COMMIT leaves the client what a COMMIT sent alone leaves: the statement's
/// value and the transaction's id (`answerLost`, resolved by `InFlightCommit`). Only a connection that breaks before
/// those answers arrive leaves neither (`unanswered`, resolved by the commit marker alone: `UnansweredCommit`).
extension PostgresConnection {
    /// What became of a COMMIT sent in a statement's pipeline (`commitWithNextStatement`).
    enum PipelinedCommit: Equatable {
        /// Asked for: the next pipeline that carries a statement sends COMMIT after it.
        case requested
        /// COMMIT answered: the transaction committed; it runs no further statement.
        case committed
        /// The statement's answer arrived, COMMIT's did not (the connection broke): the statement's value and the
        /// transaction's id are known, whether it committed is not, as for a COMMIT sent alone.
        case answerLost
        /// The connection broke before the statement's answer arrived: neither its value nor whether it committed is
        /// known; its commit marker tells the latter (`UnansweredCommit`).
        case unanswered
    }

    /// Sends COMMIT in the pipeline of the next statement, when that statement is the transaction's first (its BEGIN
    /// is still deferred): the caller runs no statement after it. Otherwise COMMIT goes on its own, as by default.
    func commitWithNextStatement() {
        guard hasDeferred else { return }
        pipelinedCommit = .requested
    }

    /// A statement (text results) deferred to go ahead of the next statement sent.
    struct Deferred {
        let sql: String
        /// Whether its first value is kept in `deferredValue` (the BEGIN round trip's select).
        let keepsValue: Bool
        /// Its parameters, when it is prepared once per session like any other statement with parameters (the
        /// write's start, `WriteStart`); nil for one sent as it is, unprepared (BEGIN).
        var arguments: [PostgresValue]? = nil
    }

    /// Defers `statements` (a transaction's BEGIN round trip) to the next statement sent: `hasDeferred` until then;
    /// `deferredValue` and `beginAnswered` are cleared.
    func deferTransaction(_ statements: [Deferred]) {
        deferred = statements
        deferredValue = nil
        beginAnswered = false
        pipelinedCommit = nil
    }

    /// Whether statements wait for the next one sent (the body has sent none yet: no transaction began on the server).
    var hasDeferred: Bool { !deferred.isEmpty }

    /// Forgets the deferred statements (a body that ran no statement, or failed before its first).
    func discardDeferred() {
        deferred = []
    }

    /// Sends the deferred statements on their own (one round trip): before a statement that cannot go in a pipeline
    /// (the simple protocol's `command` and `simpleValue`).
    func sendDeferred() throws(StorageError) {
        guard hasDeferred else { return }
        let handle = try connected()
        try pipeline(handle, statement: nil) { (_) throws(StorageError) in () }
    }

    /// Runs `sql` with `arguments` after the deferred statements, in one pipeline, and hands its result to `read`.
    func runAfterDeferred<T>(
        _ sql: String, _ arguments: [PostgresValue], _ read: (OpaquePointer) throws(StorageError) -> T
    ) throws(StorageError) -> T {
        try spendStatement()
        let handle = try connected()
        return try pipeline(handle, statement: (sql, arguments), read)
    }

    /// Sends the deferred statements, then `statement` (prepared first if this session has not prepared it), syncs,
    /// and reads every answer; returns what `read` makes of the statement's result (`statement` nil: of nothing).
    private func pipeline<T>(
        _ handle: OpaquePointer, statement: (sql: String, arguments: [PostgresValue])?,
        _ read: (OpaquePointer) throws(StorageError) -> T
    ) throws(StorageError) -> T {
        let ahead = deferred
        deferred = []
        guard PQenterPipelineMode(handle) == 1 else {
            throw StorageError(.internalFailure, "PQenterPipelineMode failed: \(Self.message(handle))")
        }
        // The names each statement is being prepared under in this pipeline (nil: sent as it is, or known).
        var preparingAhead: [String?] = []
        var preparing: String?
        var sent = true
        for item in ahead where sent {
            if let arguments = item.arguments {
                let sending = sendPrepared(handle, item.sql, arguments, pending: preparingAhead, binary: false)
                sent = sending.sent
                preparingAhead.append(sending.preparing)
            } else {
                sent = PQsendQueryParams(handle, item.sql, 0, nil, nil, nil, nil, 0) == 1
                preparingAhead.append(nil)
            }
        }
        if sent, let statement {
            let sending = sendPrepared(
                handle, statement.sql, statement.arguments, pending: preparingAhead, binary: true)
            sent = sending.sent
            preparing = sending.preparing
        }
        // COMMIT only after a statement (sent on its own, the deferred statements are not the transaction's end).
        let commits = statement != nil && pipelinedCommit == .requested
        if commits {
            // Until the statement's answer arrives, nothing is known of what the server did.
            pipelinedCommit = .unanswered
            sent =
                sent && PQsendFlushRequest(handle) == 1
                && PQsendQueryParams(handle, "COMMIT", 0, nil, nil, nil, nil, 0) == 1
        } else if pipelinedCommit == .requested {
            pipelinedCommit = nil
        }
        sent = sent && PQpipelineSync(handle) == 1
        counters.roundTrips.add(1, ordering: .relaxed)
        guard sent else { return try lose(handle, sql: statement?.sql ?? ahead.first?.sql ?? "") }
        var error: StorageError?
        // The deferred statements' answers.
        for (index, item) in ahead.enumerated() {
            if let name = preparingAhead[index],
                try !takePrepareAnswer(handle, sql: item.sql, name: name, error: &error)
            {
                return try lose(handle, sql: item.sql)
            }
            guard let result = nextResult(handle) else { return try lose(handle, sql: item.sql) }
            defer { PQclear(result) }
            if let failed = failure(of: result, sql: item.sql) {
                error = error ?? failed
                guard self.handle == handle else { throw failed }  // the connection was lost: closed by `check`
                continue
            }
            if index == 0, PQresultStatus(result) == PGRES_COMMAND_OK { beginAnswered = true }
            if item.keepsValue { deferredValue = Self.firstValue(result) }
        }
        var value: T?
        if let statement {
            if let preparing, try !takePrepareAnswer(handle, sql: statement.sql, name: preparing, error: &error) {
                return try lose(handle, sql: statement.sql)
            }
            guard let result = nextResult(handle) else { return try lose(handle, sql: statement.sql) }
            defer { PQclear(result) }
            if let failed = failure(of: result, sql: statement.sql) {
                error = error ?? failed
                guard self.handle == handle else { throw failed }
            } else if error == nil {
                do { value = try read(result) } catch let failed { error = failed }
            }
            if commits {
                takeCommitAnswer(handle, error: &error)
                // The connection is gone: no sync to read. The statement's value stands if the commit happened.
                if pipelinedCommit == .answerLost { return try Self.outcome(value, error) }
            }
        } else if error == nil {
            value = try read(handle)
        }
        // The sync's answer; then the connection leaves pipeline mode, idle (or in the transaction BEGIN opened).
        guard let sync = nextResult(handle) else { return try lose(handle, sql: "sync") }
        let synced = PQresultStatus(sync) == PGRES_PIPELINE_SYNC
        PQclear(sync)
        guard synced, PQexitPipelineMode(handle) == 1 else { return try lose(handle, sql: "sync") }
        return try Self.outcome(value, error)
    }

    /// What a pipeline gives its caller: the first failure it met, else the statement's value.
    private static func outcome<T>(_ value: T?, _ error: StorageError?) throws(StorageError) -> T {
        if let error { throw error }
        guard let value else { throw StorageError(.internalFailure, "a pipeline's statement gave no result") }
        return value
    }

    /// Records the answer to a pipelined COMMIT, once the statement's arrived, in `pipelinedCommit`: `.committed`;
    /// nil when the statement failed (PostgreSQL skipped COMMIT: the transaction is open, aborted, until the
    /// caller's ROLLBACK) or COMMIT itself failed (a deferred check: rolled back, its error kept in `error` unless
    /// an earlier one is); `.answerLost` when the connection broke first (closed by `check`).
    private func takeCommitAnswer(_ handle: OpaquePointer, error: inout StorageError?) {
        pipelinedCommit = .answerLost
        guard let result = nextResult(handle) else {
            if self.handle == handle { disconnect() }
            failure = failure ?? .connectionLost
            return
        }
        defer { PQclear(result) }
        if PQresultStatus(result) == PGRES_PIPELINE_ABORTED {
            pipelinedCommit = nil
        } else if let failed = failure(of: result, sql: "COMMIT") {
            if self.handle == handle {
                pipelinedCommit = nil
                error = error ?? failed
            }
        } else {
            pipelinedCommit = .committed
        }
    }

    /// Sends `sql` as a prepared statement with `arguments` (binary parameters; results binary or text), preceded by
    /// its `PQsendPrepare` when this session has not prepared it: then the name it is being prepared under, which
    /// becomes known once that answer arrives. `pending` are the names already being prepared in this pipeline.
    private func sendPrepared(
        _ handle: OpaquePointer, _ sql: String, _ arguments: [PostgresValue], pending: [String?], binary: Bool
    ) -> (sent: Bool, preparing: String?) {
        var preparing: String?
        var sent = true
        let name: String
        if let known = prepared[sql] {
            name = known
        } else {
            name = "p\(prepared.count + pending.compactMap { $0 }.count + 1)"
            preparing = name
            let types = arguments.map(\.typeOID)
            sent = PQsendPrepare(handle, name, sql, Int32(types.count), types) == 1
        }
        sent =
            sent
            && Self.withParameters(arguments) { values, lengths, formats in
                PQsendQueryPrepared(handle, name, Int32(arguments.count), values, lengths, formats, binary ? 1 : 0)
                    == 1
            }
        return (sent, preparing)
    }

    /// Reads the answer to `sql`'s `PQsendPrepare` under `name`: once it succeeded the session knows the statement
    /// by that name; a failure is kept in `error` unless an earlier one is (the first failure is what the pipeline
    /// throws), and thrown at once when it cost the connection. `false` when the connection gave no answer (the caller
    /// then loses the pipeline).
    private func takePrepareAnswer(
        _ handle: OpaquePointer, sql: String, name: String, error: inout StorageError?
    ) throws(StorageError) -> Bool {
        guard let result = nextResult(handle) else { return false }
        defer { PQclear(result) }
        if let failed = failure(of: result, sql: sql) {
            error = error ?? failed
            guard self.handle == handle else { throw failed }  // the connection was lost: closed by `check`
        } else if PQresultStatus(result) == PGRES_COMMAND_OK {
            prepared[sql] = name
        }
        return true
    }

    /// The next command's result, with the NULL that ends it consumed (none follows a sync); nil when the
    /// connection gave none.
    private func nextResult(_ handle: OpaquePointer) -> OpaquePointer? {
        guard let result = PQgetResult(handle) else { return nil }
        if PQresultStatus(result) != PGRES_PIPELINE_SYNC {
            // A command's results end with NULL; a broken connection ends them too (bounded all the same).
            for _ in 0..<8 {
                guard let extra = PQgetResult(handle) else { break }
                PQclear(extra)
            }
        }
        return result
    }

    /// The error of a failed `result` (nil when it succeeded, or was skipped after an earlier failure in the pipeline).
    private func failure(of result: OpaquePointer, sql: String) -> StorageError? {
        if PQresultStatus(result) == PGRES_PIPELINE_ABORTED { return nil }
        do {
            try check(result, sql: sql)
            return nil
        } catch {
            return error
        }
    }

    /// The pipeline broke off (the connection failed, or libpq refused a command): the connection is closed, as
    /// after any lost connection, and the error thrown is the first the pipeline met, else a lost connection's.
    private func lose<T>(_ handle: OpaquePointer, sql: String) throws(StorageError) -> T {
        let reason = self.handle == handle ? Self.message(handle) : "connection closed"
        if self.handle == handle { disconnect() }
        failure = failure ?? .connectionLost
        throw firstError
            ?? PostgresFailure.error(
                sqlState: nil, constraint: nil, message: "\(reason) [\(sql.prefix(60))]", failure: .connectionLost)
    }

    /// The first column of the first row of `result`, as text; nil without one.
    private static func firstValue(_ result: OpaquePointer) -> String? {
        guard PQntuples(result) > 0, PQnfields(result) > 0, PQgetisnull(result, 0, 0) == 0,
            let value = PQgetvalue(result, 0, 0)
        else { return nil }
        return String(cString: value)
    }

    private static func message(_ handle: OpaquePointer) -> String {
        PQerrorMessage(handle).map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
    }
}
