import Foundation
import Storage

/// The `StoreReader`/`StoreWriter` of one open SQLite transaction. Lives only inside one body call, on the
/// connection's queue; writes are in `SQLiteTransaction+Writer.swift`.
final class SQLiteTransaction: StoreWriter {
    let database: SQLiteDatabase

    init(database: SQLiteDatabase) {
        self.database = database
    }

    /// The first row of `sql`, decoded, or nil.
    func one<T>(
        _ sql: String, _ arguments: [SQLiteValue], _ decode: (SQLiteStatement) throws(StorageError) -> T
    ) throws(StorageError) -> T? {
        try database.query(sql, arguments, decode).first
    }

    func user(id: String) throws(StorageError) -> User? {
        try one(Self.userByIDSQL, [.text(id)], Self.user)
    }

    /// Lookups by id (also the login read's definition, `loginCredentialStepByStep`), spelled once rather than per call.
    private static let userByIDSQL = "SELECT \(userColumns) FROM users WHERE id = ?"
    private static let credentialByIDSQL = "SELECT \(credentialColumns) FROM credentials WHERE credential_id = ?"

    func user(userHandle: [UInt8]) throws(StorageError) -> User? {
        try one("SELECT \(Self.userColumns) FROM users WHERE user_handle = ?", [.blob(userHandle)], Self.user)
    }

    func user(realm: String, identifier: UserIdentifier) throws(StorageError) -> User? {
        // The column name comes from a closed enum, never from input.
        let column = Self.column(for: identifier.kind)
        return try one(
            "SELECT \(Self.userColumns) FROM users WHERE realm = ? AND \(column) = ?",
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
        try one(Self.credentialByIDSQL, [.blob(credentialID)], Self.credential)
    }

    func credentials(userID: String) throws(StorageError) -> [Credential] {
        try database.query(
            "SELECT \(Self.credentialColumns) FROM credentials WHERE user_id = ? ORDER BY created_at, credential_id",
            [.text(userID)], Self.credential)
    }

    func authSession(id: String) throws(StorageError) -> AuthSession? {
        try one("SELECT \(Self.authSessionColumns) FROM auth_sessions WHERE id = ?", [.text(id)], Self.authSession)
    }

    func refreshToken(hash tokenHash: [UInt8]) throws(StorageError) -> RefreshToken? {
        try one(
            "SELECT \(Self.refreshTokenColumns) FROM refresh_tokens WHERE token_hash = ?", [.blob(tokenHash)],
            Self.refreshToken)
    }

    func refreshTokens(familyID: String) throws(StorageError) -> [RefreshToken] {
        try database.query(
            "SELECT \(Self.refreshTokenColumns) FROM refresh_tokens WHERE family_id = ? ORDER BY created_at, token_hash",
            [.text(familyID)], Self.refreshToken)
    }

    func sessionStatus(userID: String, familyID: String?) throws(StorageError) -> SessionStatus {
        // One statement: the user's revocation instant (no row: the user is gone) and whether the family has a
        // revoked token (the family index).
        let status = try one(
            """
            SELECT 1, sessions_revoked_at,
                EXISTS (SELECT 1 FROM refresh_tokens WHERE family_id = ? AND revoked_at IS NOT NULL)
            FROM users WHERE id = ?
            """,
            [.optionalText(familyID), .text(userID)]
        ) { (row) throws(StorageError) in
            SessionStatus(userExists: true, sessionsRevokedAt: try row.optionalDate(1), familyRevoked: try row.bool(2))
        }
        return status ?? SessionStatus(userExists: false, sessionsRevokedAt: nil, familyRevoked: false)
    }

    func signingKeys() throws(StorageError) -> [SigningKey] {
        try database.query(
            "SELECT \(Self.signingKeyColumns) FROM signing_keys ORDER BY created_at, kid", [], Self.signingKey)
    }

    func deviceKeys(userID: String) throws(StorageError) -> [DeviceKey] {
        try database.query(
            "SELECT \(Self.deviceKeyColumns) FROM device_keys WHERE user_id = ? ORDER BY created_at, key_id",
            [.text(userID)], Self.deviceKey)
    }

    func deviceKey(id keyID: String, userID: String) throws(StorageError) -> DeviceKey? {
        try one(
            "SELECT \(Self.deviceKeyColumns) FROM device_keys WHERE key_id = ? AND user_id = ?",
            [.text(keyID), .text(userID)], Self.deviceKey)
    }

    func deviceChallenge(id challengeID: String) throws(StorageError) -> DeviceChallenge? {
        try one(
            "SELECT \(Self.deviceChallengeColumns) FROM device_challenges WHERE challenge_id = ?", [.text(challengeID)],
            Self.deviceChallenge)
    }

    func securityEvents(after seq: Int64, limit: Int) throws(StorageError) -> [SecurityEvent] {
        try database.query(
            "SELECT \(Self.securityEventColumns) FROM security_events WHERE seq > ? ORDER BY seq LIMIT ?",
            [.integer(seq), .integer(Int64(max(0, limit)))], Self.securityEvent)
    }

    func securityEvents(userID: String, limit: Int) throws(StorageError) -> [SecurityEvent] {
        try database.query(
            "SELECT \(Self.securityEventColumns) FROM security_events WHERE user_id = ? ORDER BY seq DESC LIMIT ?",
            [.text(userID), .integer(Int64(max(0, limit)))], Self.securityEvent)
    }

    func lastHeartbeat() throws(StorageError) -> Date? {
        try database.query("SELECT beat_at FROM heartbeat WHERE id = 1") { (row) throws(StorageError) in
            try row.date(0)
        }.first
    }
}
