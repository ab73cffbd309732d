import Storage

/// What a failed statement means for the transaction runner, from its SQLSTATE (PostgreSQL manual, Appendix A).
enum PostgresFailure: Equatable {
    /// 40001 serialization_failure or 40P01 deadlock_detected: nothing was committed; the whole transaction may be
    /// run again.
    case retryable
    /// The connection is gone (class 08, or the server shutting down: 57P01–57P03), or libpq lost it: the
    /// connection must be replaced. Whether an in-flight COMMIT took effect is unknown.
    case connectionLost
    /// A statement prepared on this connection no longer matches the schema: another node (a newer passkeyd)
    /// migrated it, changing a result's type (0A000 "cached plan must not change result type"). Nothing was
    /// committed; the connection's prepared statements must be dropped and the transaction run again.
    case stalePreparedStatement
    /// 25006 read_only_sql_transaction: the connection is to a server that does not accept writes (a standby, or
    /// a server or database set `default_transaction_read_only`). Nothing was written; the connection is dropped so
    /// that the next one finds a writable server (`target_session_attrs`), and the request gets 503
    /// (`.unavailable`, read-only).
    case readOnlyServer
    /// Anything else: reported as it is.
    case other

    /// PostgreSQL's message for a prepared statement whose result type a schema change altered (plancache.c).
    static let stalePlanMessage = "cached plan must not change result type"

    /// The SQLSTATEs of a statement stopped by a timeout: 57014 query_canceled (`statement_timeout`, or a cancel),
    /// 55P03 lock_not_available (`lock_timeout`). Its transaction rolls back; it may be run again.
    static let timeoutStates: Set<String> = ["57014", "55P03"]

    /// Classifies `sqlState` (nil when libpq produced the error itself, e.g. on a broken socket); `message` is the
    /// primary message, which tells a stale prepared statement from other 0A000 errors.
    init(sqlState: String?, message: String? = nil, connectionBroken: Bool) {
        if connectionBroken {
            self = .connectionLost
            return
        }
        switch sqlState {
        case "0A000" where message?.contains(Self.stalePlanMessage) == true: self = .stalePreparedStatement
        case "40001", "40P01": self = .retryable
        case "25006": self = .readOnlyServer
        case "57P01", "57P02", "57P03": self = .connectionLost
        case let state? where state.hasPrefix("08"): self = .connectionLost
        default: self = .other
        }
    }

    /// The `StorageError` for a failed statement. Connection loss and exhausted retries are `.busy`: the
    /// database is unavailable for now and the request may be repeated (the server answers 503). A server that cannot
    /// take writes (read-only, disk full, out of memory: class 53) is `.unavailable`, saying which: the statement
    /// failed with an ERROR, which aborts its transaction, so nothing was written, at COMMIT too (an ERROR there comes
    /// before the commit record; a failure to write that record is a PANIC, which ends the connection: in doubt).
    static func error(sqlState: String?, constraint: String?, message: String, failure: PostgresFailure)
        -> StorageError
    {
        let state = sqlState ?? "-----"
        switch failure {
        case .retryable, .stalePreparedStatement:
            return StorageError(.busy, "PostgreSQL \(state): \(message)")
        case .connectionLost:
            return StorageError(.busy, "PostgreSQL connection lost (\(state)): \(message)")
        case .readOnlyServer:
            return .unavailable(
                .readOnly,
                "PostgreSQL \(state): the database is read-only (a standby, or default_transaction_read_only); "
                    + "reconnecting: \(message)")
        case .other:
            break
        }
        switch state {
        case "23505":
            // The schema names each unique constraint after its `StorageError.Constraint`.
            guard let named = constraint.flatMap(StorageError.Constraint.init(rawValue:)) else {
                return StorageError(.conflict, "PostgreSQL 23505 on a constraint passkeyd does not name: \(message)")
            }
            return .conflict(named, "PostgreSQL 23505: \(message)")
        case "23503":
            return StorageError(.conflict, "PostgreSQL 23503: \(message)", constraint: .foreignKey)
        case "53300":
            return StorageError(.busy, "PostgreSQL 53300: \(message)")
        case let timedOut where timeoutStates.contains(timedOut):
            // The operator's statement_timeout or lock_timeout (`options`), or a cancel: the statement failed and its
            // transaction rolls back, nothing written, so the client may retry (503) as after a lost connection.
            return StorageError(.busy, "PostgreSQL \(state), the transaction rolled back: \(message)")
        case "53100":
            // disk_full ("could not extend file"): the transaction aborted.
            return .unavailable(.diskFull, "PostgreSQL 53100: the database's disk is full: \(message)")
        case let other where other.hasPrefix("53"):
            // insufficient_resources (53000), out_of_memory (53200), configuration_limit_exceeded (53400): the
            // transaction aborted.
            return .unavailable(.insufficientResources, "PostgreSQL \(other): out of resources: \(message)")
        case let other where other.hasPrefix("58"):
            // system errors (I/O).
            return StorageError(.io, "PostgreSQL \(other): \(message)")
        case "XX001", "XX002":
            return StorageError(.corrupt, "PostgreSQL \(state): \(message)")
        default:
            return StorageError(.internalFailure, "PostgreSQL \(state): \(message)")
        }
    }
}
