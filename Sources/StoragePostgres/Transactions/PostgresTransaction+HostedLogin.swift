import Foundation
import Storage

/// The hosted login's sessions and authorization codes on PostgreSQL: each read, write and compare-and-set one
/// statement (the row's lock makes a concurrent caller wait and then find it set).
extension PostgresTransaction {
    func loginSession(idHash: [UInt8]) throws(StorageError) -> LoginSession? {
        try one(
            "SELECT \(Self.loginSessionColumns) FROM login_sessions WHERE id_hash = $1", [.bytea(idHash)],
            Self.loginSession)
    }

    func authorizationCode(hash codeHash: [UInt8]) throws(StorageError) -> AuthorizationCode? {
        try one(
            "SELECT \(Self.authorizationCodeColumns) FROM authorization_codes WHERE code_hash = $1",
            [.bytea(codeHash)], Self.authorizationCode)
    }

    func endLoginSession(idHash: [UInt8], at: Date) throws(StorageError) -> Bool {
        try connection.execute(
            "UPDATE login_sessions SET ended_at = $1 WHERE id_hash = $2 AND ended_at IS NULL",
            [.date(at), .bytea(idHash)]) == 1
    }

    func endLoginSessions(userID: String?, at: Date) throws(StorageError) -> Int {
        guard let userID else {
            return try connection.execute("UPDATE login_sessions SET ended_at = $1 WHERE ended_at IS NULL", [.date(at)])
        }
        return try connection.execute(
            "UPDATE login_sessions SET ended_at = $1 WHERE user_id = $2 AND ended_at IS NULL",
            [.date(at), .text(userID)])
    }

    func redeemAuthorizationCode(hash codeHash: [UInt8], at: Date, refreshFamily: String) throws(StorageError)
        -> Bool
    {
        // The compare-and-set: of concurrent redemptions, on any node, exactly one finds `redeemed_at` NULL.
        try connection.execute(
            """
            UPDATE authorization_codes SET redeemed_at = $1, refresh_family = $2
            WHERE code_hash = $3 AND redeemed_at IS NULL
            """, [.date(at), .text(refreshFamily), .bytea(codeHash)]) == 1
    }

    /// The column values of `session`, in `loginSessionColumns` order.
    static func values(_ session: LoginSession) -> [PostgresValue] {
        [
            .bytea(session.idHash), .text(session.userID), .text(session.realm), .date(session.authTime),
            .text(AuthenticationMethodsColumn.encode(session.authenticationMethods) ?? ""),
            .date(session.createdAt), .date(session.expiresAt), .optionalDate(session.endedAt),
        ]
    }

    /// The column values of `code`, in `authorizationCodeColumns` order.
    static func values(_ code: AuthorizationCode) -> [PostgresValue] {
        [
            .bytea(code.codeHash), .text(code.clientID), .text(code.redirectURI), .text(code.codeChallenge),
            .text(code.userID), .bytea(code.sessionHash), .text(code.realm), .text(code.scope),
            .optionalText(code.audience), .optionalText(code.organizationID), .optionalText(code.nonce),
            .date(code.authTime), .text(AuthenticationMethodsColumn.encode(code.authenticationMethods) ?? ""),
            .date(code.createdAt), .date(code.expiresAt), .optionalDate(code.redeemedAt),
            .optionalText(code.refreshFamily), .optionalText(code.dpopThumbprint),
        ]
    }
}
