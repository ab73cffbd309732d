import Foundation
import Storage
internal import CLibPQ

/// The one owner of a `PGconn` and the statements prepared on it.
///
/// Confined to one thread: the serial queue of its `PostgresSlot`, which runs one job at a time. Connects lazily
/// and again after the connection was lost, so a pool outlives a database restart. Every statement with
/// parameters is prepared once per connection (`PQprepare`) and then run with `PQexecPrepared`, binary in and out;
/// a transaction's BEGIN round trip goes in one pipeline with its first statement (`+Pipeline`).
final class PostgresConnection {
    private let configuration: PostgresConfiguration
    private(set) var handle: OpaquePointer?
    /// SQL text → prepared statement name, for this session (cleared when the connection is replaced).
    var prepared: [String: String] = [:]
    /// The first failure since `resetFailure()`: a statement after a failed one fails with 25P02, which must not
    /// hide why the transaction failed.
    var failure: PostgresFailure?
    /// The error of that first failed statement: what a later statement's 25P02 is thrown as.
    private(set) var firstError: StorageError?
    /// The SQLSTATE of that first failed statement, when the server gave one.
    private(set) var firstSQLState: String?
    /// Statements the current body may still run, when limited (`nil`: no limit). A read is first tried as one
    /// statement outside any transaction (`PostgresStore.read`); a second statement sets `exceededBudget` and
    /// fails, and the read is run again inside a transaction.
    private var statementBudget: Int?
    /// Whether a statement was refused because `statementBudget` was spent.
    private(set) var exceededBudget = false
    /// The session's own `statement_timeout` in milliseconds (0: none), read at its first use and kept for the
    /// session (`StatementDeadline`); settings a session starts with do not change under it.
    private var sessionTimeout: Int64?
    /// The commit marker of this session's last write whose COMMIT answered (`CommitMarker`): no longer needed, it
    /// is deleted in the BEGIN round trip of the session's next write. Forgotten with the session: the marker of a
    /// COMMIT in doubt must stay for `CommitResolution` (housekeeping deletes it later).
    var settledMarker: CommitMarker?
    /// Statements that go to the server with the next statement sent, in one pipeline: a transaction's BEGIN round
    /// trip (`PostgresConnection+Pipeline.swift`).
    var deferred: [Deferred] = []
    /// The value of the deferred statement that keeps one, once its pipeline answered.
    var deferredValue: String?
    /// Whether the deferred BEGIN was answered: the transaction began on the server (a connection lost before that
    /// began nothing, and the transaction may run again on a new one).
    var beginAnswered = false
    /// A COMMIT asked to go in the pipeline of the transaction's first statement (`commitWithNextStatement`), and
    /// what became of it; nil when COMMIT goes on its own, as it does by default.
    var pipelinedCommit: PipelinedCommit?

    let counters: PostgresCounters
    /// Shared with the store's other connections: whether to try connecting now (`ConnectGate`).
    private let gate: ConnectGate

    init(configuration: PostgresConfiguration, counters: PostgresCounters, gate: ConnectGate = ConnectGate()) {
        self.configuration = configuration
        self.counters = counters
        self.gate = gate
    }

    deinit {
        if let handle { PQfinish(handle) }
    }

    /// Whether a usable session is open.
    var isConnected: Bool {
        guard let handle else { return false }
        return PQstatus(handle) == CONNECTION_OK
    }

    /// The session's socket (`PQsocket`), nil without one. Tests break it from the client side, as a network failure
    /// would, to lose a COMMIT the server still completes.
    var socketDescriptor: Int32? {
        guard let handle else { return nil }
        let socket = PQsocket(handle)
        return socket >= 0 ? socket : nil
    }

    /// Opens the session if there is none or the last one broke.
    func connectIfNeeded() throws(StorageError) {
        if isConnected { return }
        disconnect()
        deferred = []
        if case .refuse(let until) = gate.decide(now: Date(), probeLimit: configuration.connectAttemptLimit) {
            failure = .connectionLost
            throw Self.connectFailure(
                gate.unavailability,
                "PostgreSQL at \(configuration) is unreachable (an attempt to connect just failed); the next attempt "
                    + "in \(String(format: "%.1f", max(0, until.timeIntervalSinceNow))) s")
        }
        let pairs = configuration.connectionParameters
        let keywords = pairs.map { strdup($0.keyword) }
        let values = pairs.map { strdup($0.value) }
        defer {
            for pointer in keywords + values { free(pointer) }
        }
        let connection = (keywords.map { UnsafePointer($0) } + [nil]).withUnsafeBufferPointer { keywordArray in
            (values.map { UnsafePointer($0) } + [nil]).withUnsafeBufferPointer { valueArray in
                PQconnectdbParams(keywordArray.baseAddress, valueArray.baseAddress, 0)
            }
        }
        guard let connection else {
            counters.connectFailures.add(1, ordering: .relaxed)
            gate.failed(at: Date())
            throw StorageError(.io, "PQconnectdbParams returned no connection (out of memory)")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            counters.connectFailures.add(1, ordering: .relaxed)
            let message = Self.trimmed(PQerrorMessage(connection))
            let unavailability = Self.unavailability(connectMessage: message)
            gate.failed(at: Date(), unavailability: unavailability)
            PQfinish(connection)
            failure = .connectionLost
            throw Self.connectFailure(unavailability, "cannot connect to PostgreSQL at \(configuration): \(message)")
        }
        // NOTICEs (e.g. "relation already exists, skipping") would go to stderr by default: drop them.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        handle = connection
        gate.succeeded()
        counters.connectionsOpened.add(1, ordering: .relaxed)
    }

    /// Closes the session (prepared statements go with it).
    func disconnect() {
        if let handle { PQfinish(handle) }
        handle = nil
        prepared.removeAll()
        sessionTimeout = nil
        settledMarker = nil
    }

    /// The session's own `statement_timeout` in milliseconds (0: none): asked once per session, outside any
    /// transaction.
    func sessionStatementTimeout() throws(StorageError) -> Int64 {
        if let sessionTimeout { return sessionTimeout }
        let text = try simpleValue(StatementDeadline.sessionSelect)
        guard let text, let value = Int64(text) else {
            throw StorageError(.internalFailure, "statement_timeout reads \(text ?? "nothing") in pg_settings")
        }
        sessionTimeout = value
        return value
    }

    func resetFailure() {
        failure = nil
        firstError = nil
        firstSQLState = nil
    }

    /// Limits the statements of the next body to `budget` (`nil`: no limit) and clears `exceededBudget`.
    func limitStatements(to budget: Int?) {
        statementBudget = budget
        exceededBudget = false
    }

    /// Spends one statement of the budget, or fails when it is spent.
    func spendStatement() throws(StorageError) {
        if pipelinedCommit == .committed {
            throw StorageError(.internalFailure, "a statement after its transaction's COMMIT went with the one before")
        }
        guard let budget = statementBudget else { return }
        guard budget > 0 else {
            exceededBudget = true
            throw StorageError(.internalFailure, "more statements than the single-statement read allows")
        }
        statementBudget = budget - 1
    }

    /// Drops every statement prepared on this session (`DEALLOCATE ALL`), so that the next use prepares it again
    /// against the current schema. Outside a transaction.
    func forgetPreparedStatements() throws(StorageError) {
        guard !prepared.isEmpty else { return }
        try command("DEALLOCATE ALL")
        prepared.removeAll()
    }

    /// Runs a statement without parameters through the simple protocol (transaction control, DDL); returns its
    /// command tag (`COMMIT`, or `ROLLBACK` when COMMIT met an aborted transaction).
    @discardableResult
    func command(_ sql: String) throws(StorageError) -> String {
        try spendStatement()
        try sendDeferred()
        let handle = try connected()
        counters.roundTrips.add(1, ordering: .relaxed)
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result, sql: sql)
        return result.flatMap { PQcmdStatus($0) }.map { String(cString: $0) } ?? ""
    }

    /// Runs `sql` through the simple protocol (several `;`-separated statements allowed, one round trip) and
    /// returns the first column of the first row of the last statement's result, as text (nil without a row).
    func simpleValue(_ sql: String) throws(StorageError) -> String? {
        try sendDeferred()
        let handle = try connected()
        counters.roundTrips.add(1, ordering: .relaxed)
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result, sql: sql)
        guard let result, PQntuples(result) > 0, PQnfields(result) > 0, PQgetisnull(result, 0, 0) == 0,
            let value = PQgetvalue(result, 0, 0)
        else { return nil }
        return String(cString: value)
    }

    /// Runs `sql` with `arguments`; returns the number of rows it changed (or returned).
    @discardableResult
    func execute(_ sql: String, _ arguments: [PostgresValue] = []) throws(StorageError) -> Int {
        try run(sql, arguments) { (result) throws(StorageError) in
            Int(String(cString: PQcmdTuples(result))) ?? Int(PQntuples(result))
        }
    }

    /// Runs `sql` with `arguments` and decodes every row with `decode`.
    func query<T>(
        _ sql: String, _ arguments: [PostgresValue] = [], _ decode: (PostgresRow) throws(StorageError) -> T
    ) throws(StorageError) -> [T] {
        try run(sql, arguments) { (result) throws(StorageError) in
            let count = PQntuples(result)
            var rows: [T] = []
            rows.reserveCapacity(Int(count))
            for row in 0..<count {
                rows.append(try decode(PostgresRow(result: result, row: row)))
            }
            return rows
        }
    }

    // MARK: internals

    func connected() throws(StorageError) -> OpaquePointer {
        guard let handle else {
            failure = failure ?? .connectionLost
            throw StorageError(.busy, "PostgreSQL connection is not open")
        }
        return handle
    }

    /// Prepares `sql` on first use, executes it with binary parameters and results, and hands the result to `read`.
    private func run<T>(
        _ sql: String, _ arguments: [PostgresValue], _ read: (OpaquePointer) throws(StorageError) -> T
    ) throws(StorageError) -> T {
        // A transaction's deferred BEGIN goes in one pipeline with this statement (and its PQprepare, on its first
        // use in this session).
        if hasDeferred { return try runAfterDeferred(sql, arguments, read) }
        try spendStatement()
        let handle = try connected()
        let name = try statementName(sql, arguments, handle: handle)
        counters.roundTrips.add(1, ordering: .relaxed)
        let result = Self.withParameters(arguments) { values, lengths, formats in
            PQexecPrepared(handle, name, Int32(arguments.count), values, lengths, formats, 1)
        }
        defer { PQclear(result) }
        try check(result, sql: sql)
        guard let result else { throw StorageError(.internalFailure, "PQexecPrepared returned no result") }
        return try read(result)
    }

    /// Calls `send` with `arguments` as libpq takes them, binary: values, lengths and formats that live until it
    /// returns (an empty value still needs a non-NULL pointer).
    static func withParameters<R>(
        _ arguments: [PostgresValue],
        _ send: ([UnsafePointer<CChar>?], [Int32], [Int32]) -> R
    ) -> R {
        let encoded = arguments.map(\.binary)
        let lengths = encoded.map { Int32($0?.count ?? 0) }
        let formats = [Int32](repeating: 1, count: arguments.count)
        let buffers: [UnsafeMutablePointer<CChar>?] = encoded.map { bytes in
            guard let bytes else { return nil }
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: max(bytes.count, 1))
            bytes.withUnsafeBytes { raw in
                UnsafeMutableRawPointer(buffer).copyMemory(
                    from: raw.baseAddress ?? UnsafeRawPointer(buffer), byteCount: bytes.count)
            }
            return buffer
        }
        defer {
            for buffer in buffers { buffer?.deallocate() }
        }
        return send(buffers.map { $0.map { UnsafePointer($0) } }, lengths, formats)
    }

    private func statementName(_ sql: String, _ arguments: [PostgresValue], handle: OpaquePointer)
        throws(StorageError) -> String
    {
        if let name = prepared[sql] { return name }
        let name = "p\(prepared.count + 1)"
        let types = arguments.map(\.typeOID)
        counters.roundTrips.add(1, ordering: .relaxed)
        let result = PQprepare(handle, name, sql, Int32(types.count), types)
        defer { PQclear(result) }
        try check(result, sql: sql)
        prepared[sql] = name
        return name
    }

    /// Throws the `StorageError` for a failed `result`, remembering the first failure's kind.
    func check(_ result: OpaquePointer?, sql: String) throws(StorageError) {
        let status = result.map { PQresultStatus($0) } ?? PGRES_FATAL_ERROR
        if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK { return }
        let broken = handle.map { PQstatus($0) != CONNECTION_OK } ?? true
        let sqlState = result.flatMap { passkeyd_pq_sqlstate($0) }.map { String(cString: $0) }
        let constraint = result.flatMap { passkeyd_pq_constraint($0) }.map { String(cString: $0) }
        let primary = result.flatMap { passkeyd_pq_primary_message($0) }.map { String(cString: $0) }
        let message = primary ?? handle.map { Self.trimmed(PQerrorMessage($0)) } ?? "no connection"
        let kind = PostgresFailure(sqlState: sqlState, message: primary, connectionBroken: broken)
        failure = failure ?? kind
        if kind == .connectionLost || kind == .readOnlyServer { disconnect() }
        // 25P02 in_failed_sql_transaction: a statement after a failed one (a body that caught the error and went on,
        // such as an insert's compensating delete). The transaction failed for the first error: that is the answer
        // (a full disk is a 503, not a 500 "current transaction is aborted").
        if sqlState == "25P02", let firstError { throw firstError }
        let error = PostgresFailure.error(
            sqlState: sqlState, constraint: constraint, message: "\(message) [\(sql.prefix(60))]", failure: kind)
        if firstError == nil { firstSQLState = sqlState }
        firstError = firstError ?? error
        throw error
    }

    /// Why libpq refused every server for not taking writes (`target_session_attrs`: "session is read-only" for
    /// `read-write`, "server is in hot standby mode" for `primary`), or nil when that is not why it failed.
    static func unavailability(connectMessage message: String) -> StorageError.Unavailability? {
        message.contains("session is read-only") || message.contains("server is in hot standby mode")
            ? .readOnly : nil
    }

    /// A failure to open a session: `.unavailable` when the server would not take writes, else `.busy`
    /// (unreachable); nothing was written either way.
    private static func connectFailure(_ unavailability: StorageError.Unavailability?, _ reason: String)
        -> StorageError
    {
        unavailability.map { StorageError.unavailable($0, reason) } ?? StorageError(.busy, reason)
    }

    private static func trimmed(_ message: UnsafePointer<CChar>?) -> String {
        message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
    }
}
