import Foundation
import Storage

/// The `StoreReader`/`StoreWriter` of one open PostgreSQL transaction. Lives only inside one body call, on the
/// leased connection's queue; writes are in `PostgresTransaction+Writer.swift`. Text orderings use `COLLATE "C"`
/// (byte order, as SQLite's BINARY), so the order of ties does not depend on the database's locale.
final class PostgresTransaction: StoreWriter {
    let connection: PostgresConnection
    /// Whether this is a `Store.write` transaction (READ COMMITTED) rather than a read-only snapshot.
    let isWrite: Bool
    /// Whether the body is one writer operation (`PostgresStore.writeOperation`): an operation that is one statement,
    /// the transaction's first, may send COMMIT with it (`PostgresConnection.commitWithNextStatement`).
    let commitsWithOperation: Bool

    init(connection: PostgresConnection, isWrite: Bool, commitsWithOperation: Bool = false) {
        self.connection = connection
        self.isWrite = isWrite
        self.commitsWithOperation = commitsWithOperation
    }

    /// The first row of `sql`, decoded, or nil.
    func one<T>(
        _ sql: String, _ arguments: [PostgresValue], _ decode: (PostgresRow) throws(StorageError) -> T
    ) throws(StorageError) -> T? {
        try connection.query(sql, arguments, decode).first
    }

    /// What only one node may do at a time (per schema): the audit sequencer, the purges.
    enum NodeLock: String {
        case audit = "passkeyd.audit"
        case purge = "passkeyd.purge"
    }

    /// Takes `lock` for the rest of this transaction if no other transaction holds it (`pg_try_advisory_xact_lock`,
    /// keyed by its name and the schema, so deployments sharing a database do not exclude each other); false when
    /// another node holds it. It goes with COMMIT or ROLLBACK, also if the connection drops.
    func tryNodeLock(_ lock: NodeLock) throws(StorageError) -> Bool {
        try one(
            "SELECT pg_try_advisory_xact_lock(hashtext($1), hashtext(coalesce(current_schema(), '')))",
            [.text(lock.rawValue)]
        ) { (row) throws(StorageError) in try row.bool(0) } == true
    }

    func user(id: String) throws(StorageError) -> User? {
        try one("SELECT \(Self.userColumns) FROM users WHERE id = $1", [.text(id)], Self.user)
    }

    func user(userHandle: [UInt8]) throws(StorageError) -> User? {
        try one("SELECT \(Self.userColumns) FROM users WHERE user_handle = $1", [.bytea(userHandle)], Self.user)
    }

    func user(realm: String, identifier: UserIdentifier) throws(StorageError) -> User? {
        // The column name comes from a closed enum, never from input.
        let column = Self.column(for: identifier.kind)
        return try one(
            "SELECT \(Self.userColumns) FROM users WHERE realm = $1 AND \(column) = $2",
            [.text(realm), .text(identifier.value)], Self.user)
    }

    static func column(for kind: UserIdentifier.Kind) -> String {
        switch kind {
        case .email: "email"
        case .phoneNumber: "phone_number"
        case .username: "username"
        }
    }

    func credential(id credentialID: [UInt8]) throws(StorageError) -> Credential? {
        try one(
            "SELECT \(Self.credentialColumns) FROM credentials WHERE credential_id = $1", [.bytea(credentialID)],
            Self.credential)
    }

    func credentials(userID: String) throws(StorageError) -> [Credential] {
        try connection.query(
            "SELECT \(Self.credentialColumns) FROM credentials WHERE user_id = $1 ORDER BY created_at, credential_id",
            [.text(userID)], Self.credential)
    }

    func authSession(id: String) throws(StorageError) -> AuthSession? {
        try one("SELECT \(Self.authSessionColumns) FROM auth_sessions WHERE id = $1", [.text(id)], Self.authSession)
    }

    func refreshToken(hash tokenHash: [UInt8]) throws(StorageError) -> RefreshToken? {
        try one(
            "SELECT \(Self.refreshTokenColumns) FROM refresh_tokens WHERE token_hash = $1", [.bytea(tokenHash)],
            Self.refreshToken)
    }

    func refreshTokens(familyID: String) throws(StorageError) -> [RefreshToken] {
        try connection.query(
            "SELECT \(Self.refreshTokenColumns) FROM refresh_tokens WHERE family_id = $1 ORDER BY created_at, token_hash",
            [.text(familyID)], Self.refreshToken)
    }

    func sessionStatus(userID: String, familyID: String?) throws(StorageError) -> SessionStatus {
        // One statement, as SQLite's: no row means the user is gone.
        let status = try one(
            """
            SELECT sessions_revoked_at,
                EXISTS (SELECT 1 FROM refresh_tokens WHERE family_id = $1 AND revoked_at IS NOT NULL)
            FROM users WHERE id = $2
            """,
            [.optionalText(familyID), .text(userID)]
        ) { (row) throws(StorageError) in
            SessionStatus(userExists: true, sessionsRevokedAt: try row.optionalDate(0), familyRevoked: try row.bool(1))
        }
        return status ?? SessionStatus(userExists: false, sessionsRevokedAt: nil, familyRevoked: false)
    }

    /// In a write, the table is first locked against other writers of signing keys until commit: what a write
    /// does after reading the keys (create the first one if there is none, retire the old ones on rotation) then
    /// runs one at a time across all nodes, as it does in SQLite's single writer; without it, nodes starting
    /// together on an empty database would each create a "first" key.
    func signingKeys() throws(StorageError) -> [SigningKey] {
        if isWrite { try connection.command("LOCK TABLE signing_keys IN SHARE ROW EXCLUSIVE MODE") }
        return try connection.query(
            "SELECT \(Self.signingKeyColumns) FROM signing_keys ORDER BY created_at, kid COLLATE \"C\"", [],
            Self.signingKey)
    }

    func deviceKeys(userID: String) throws(StorageError) -> [DeviceKey] {
        try connection.query(
            "SELECT \(Self.deviceKeyColumns) FROM device_keys WHERE user_id = $1 ORDER BY created_at, key_id COLLATE \"C\"",
            [.text(userID)], Self.deviceKey)
    }

    func deviceKey(id keyID: String, userID: String) throws(StorageError) -> DeviceKey? {
        try one(
            "SELECT \(Self.deviceKeyColumns) FROM device_keys WHERE key_id = $1 AND user_id = $2",
            [.text(keyID), .text(userID)], Self.deviceKey)
    }

    func deviceChallenge(id challengeID: String) throws(StorageError) -> DeviceChallenge? {
        try one(
            "SELECT \(Self.deviceChallengeColumns) FROM device_challenges WHERE challenge_id = $1",
            [.text(challengeID)], Self.deviceChallenge)
    }

    func securityEvents(after seq: Int64, limit: Int) throws(StorageError) -> [SecurityEvent] {
        try connection.query(
            "SELECT \(Self.securityEventColumns) FROM security_events WHERE seq > $1 ORDER BY seq LIMIT $2",
            [.int8(seq), .integer(max(0, limit))], Self.securityEvent)
    }

    func securityEvents(userID: String, limit: Int) throws(StorageError) -> [SecurityEvent] {
        try connection.query(
            "SELECT \(Self.securityEventColumns) FROM security_events WHERE user_id = $1 ORDER BY seq DESC LIMIT $2",
            [.text(userID), .integer(max(0, limit))], Self.securityEvent)
    }

    func lastHeartbeat() throws(StorageError) -> Date? {
        try one("SELECT beat_at FROM heartbeat WHERE id = 1", []) { (row) throws(StorageError) in try row.date(0) }
    }
}
