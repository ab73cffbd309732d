/// The one error type of the storage layer (every driver throws it).
///
/// `code` is stable and safe to map to a client-facing answer; `reason` is for logs only.
/// Two errors are equal when their codes are equal.
public struct StorageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable, machine-readable error code: the closed set of what can go wrong, spelled in snake_case.
    public enum Code: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        /// The raw spelling.
        public var description: String { rawValue }

        /// A uniqueness constraint was violated; `StorageError.constraint` names which one.
        case conflict = "conflict"
        /// The record an operation needed does not exist.
        case notFound = "not_found"
        /// The database stayed locked by another process past the busy timeout.
        case busy = "busy"
        /// The database file is damaged or is not a database.
        case corrupt = "corrupt"
        /// Reading or writing the database failed (permissions, I/O error), or a COMMIT's outcome is unknown: the
        /// write may or may not have taken effect.
        case io = "io"
        /// The database cannot take writes right now and nothing was written: its disk is full, it is read-only, or
        /// it is out of resources; `StorageError.unavailability` says which. The same write may succeed once the
        /// operator has freed space or made the database writable again.
        case unavailable = "unavailable"
        /// The schema could not be migrated, or the database is newer than this binary.
        case migration = "migration"
        /// The store was closed.
        case closed = "closed"
        /// The store's configuration is invalid (bad path, bad URL, out-of-range option).
        case invalidConfiguration = "invalid_configuration"
        /// A stored row could not be decoded into a record (unexpected type, out-of-range value).
        case invalidRecord = "invalid_record"
        /// A copy's target already holds data (`passkeyd database copy` goes into a database no node has used).
        case notEmpty = "not_empty"
        /// The driver exists as a type but is not implemented yet.
        case notImplemented = "not_implemented"
        /// The database engine failed in a way that indicates a bug (misuse, unexpected result code).
        case internalFailure = "internal_failure"
    }

    /// Names a uniqueness constraint, carried by `.conflict` errors.
    public enum Constraint: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        /// The raw spelling.
        public var description: String { rawValue }

        /// Two users share an id.
        case userID = "user_id"
        /// Two users share a WebAuthn user handle.
        case userHandle = "user_handle"
        /// Two users of one realm share an email address.
        case userEmail = "user_email"
        /// Two users of one realm share a phone number.
        case userPhoneNumber = "user_phone_number"
        /// Two users of one realm share a username.
        case userUsername = "user_username"
        /// Two credentials share a credential id.
        case credentialID = "credential_id"
        /// Two auth sessions share a key.
        case authSessionID = "auth_session_id"
        /// Two refresh tokens share a hash.
        case refreshTokenHash = "refresh_token_hash"
        /// Two signing keys share a kid.
        case signingKeyID = "signing_key_id"
        /// Two device keys share a key id.
        case deviceKeyID = "device_key_id"
        /// Two device challenges share a challenge id.
        case deviceChallengeID = "device_challenge_id"
        /// Two users' password verifiers share an identity in one realm.
        case passwordIdentity = "password_identity"
        /// Two SRP sessions share an id.
        case srpSessionID = "srp_session_id"
        /// `device_enrolment_nonces.nonce`.
        case deviceEnrolmentNonce = "device_enrolment_nonce"
        /// Two organizations share an id.
        case organizationID = "organization_id"
        /// Two organizations share a name.
        case organizationName = "organization_name"
        /// A row refers to a parent that does not exist (e.g. a credential for an unknown user).
        case foreignKey = "foreign_key"
    }

    /// Why the database cannot take writes, carried by `.unavailable` errors.
    public enum Unavailability: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        /// The raw spelling.
        public var description: String { rawValue }

        /// The database's disk is full (SQLite's SQLITE_FULL, PostgreSQL's 53100 disk_full).
        case diskFull = "disk_full"
        /// The database does not accept writes: a read-only file (SQLITE_READONLY), a standby or a server set
        /// `default_transaction_read_only` (PostgreSQL's 25006 read_only_sql_transaction).
        case readOnly = "read_only"
        /// The database server is out of memory or another resource (PostgreSQL's class 53 but disk full and too
        /// many connections).
        case insufficientResources = "insufficient_resources"
    }

    /// The stable code.
    public let code: Code
    /// For `.conflict`: the constraint that was violated.
    public let constraint: Constraint?
    /// For `.unavailable`: why the database cannot take writes.
    public let unavailability: Unavailability?
    /// A human-readable reason, for logs.
    public let reason: String
    /// The source file of the throw site.
    public let file: String
    /// The source line of the throw site.
    public let line: Int

    /// Creates an error, capturing the throw site.
    public init(
        _ code: Code, _ reason: String, constraint: Constraint? = nil, unavailability: Unavailability? = nil,
        file: String = #fileID, line: Int = #line
    ) {
        self.code = code
        self.reason = reason
        self.constraint = constraint
        self.unavailability = unavailability
        self.file = file
        self.line = line
    }

    /// A `.conflict` error naming `constraint`.
    public static func conflict(
        _ constraint: Constraint, _ reason: String? = nil, file: String = #fileID, line: Int = #line
    ) -> StorageError {
        StorageError(
            .conflict, reason ?? "unique constraint \(constraint) violated", constraint: constraint,
            file: file, line: line)
    }

    /// An `.unavailable` error saying why: nothing was written, the database cannot take writes now.
    public static func unavailable(
        _ unavailability: Unavailability, _ reason: String, file: String = #fileID, line: Int = #line
    ) -> StorageError {
        StorageError(.unavailable, reason, unavailability: unavailability, file: file, line: line)
    }

    /// Equality by code only.
    public static func == (lhs: StorageError, rhs: StorageError) -> Bool { lhs.code == rhs.code }

    /// `code[constraint or unavailability]: reason (file:line)`.
    public var description: String {
        let named = (constraint?.rawValue ?? unavailability?.rawValue).map { "[\($0)]" } ?? ""
        return "StorageError.\(code)\(named): \(reason) (\(file):\(line))"
    }
}
