import Foundation
import Storage

/// The hosted login's sessions and authorization codes on SQLite: each read, write and compare-and-set one
/// statement.
extension SQLiteTransaction {
    func loginSession(idHash: [UInt8]) throws(StorageError) -> LoginSession? {
        try one(
            "SELECT \(Self.loginSessionColumns) FROM login_sessions WHERE id_hash = ?", [.blob(idHash)],
            Self.loginSession)
    }

    func authorizationCode(hash codeHash: [UInt8]) throws(StorageError) -> AuthorizationCode? {
        try one(
            "SELECT \(Self.authorizationCodeColumns) FROM authorization_codes WHERE code_hash = ?",
            [.blob(codeHash)], Self.authorizationCode)
    }

    func endLoginSession(idHash: [UInt8], at: Date) throws(StorageError) -> Bool {
        try database.execute(
            "UPDATE login_sessions SET ended_at = ? WHERE id_hash = ? AND ended_at IS NULL",
            [.date(at), .blob(idHash)]) == 1
    }

    func endLoginSessions(userID: String?, at: Date) throws(StorageError) -> Int {
        guard let userID else {
            return try database.execute("UPDATE login_sessions SET ended_at = ? WHERE ended_at IS NULL", [.date(at)])
        }
        return try database.execute(
            "UPDATE login_sessions SET ended_at = ? WHERE user_id = ? AND ended_at IS NULL",
            [.date(at), .text(userID)])
    }

    func redeemAuthorizationCode(hash codeHash: [UInt8], at: Date, refreshFamily: String) throws(StorageError)
        -> Bool
    {
        // The compare-and-set: of concurrent redemptions, on any node, exactly one finds `redeemed_at` NULL.
        try database.execute(
            """
            UPDATE authorization_codes SET redeemed_at = ?, refresh_family = ?
            WHERE code_hash = ? AND redeemed_at IS NULL
            """, [.date(at), .text(refreshFamily), .blob(codeHash)]) == 1
    }

    /// The column values of `session`, in `loginSessionColumns` order.
    static func values(_ session: LoginSession) -> [SQLiteValue] {
        [
            .blob(session.idHash), .text(session.userID), .text(session.realm), .date(session.authTime),
            .text(AuthenticationMethodsColumn.encode(session.authenticationMethods) ?? ""),
            .date(session.createdAt), .date(session.expiresAt), .optionalDate(session.endedAt),
        ]
    }

    /// The column values of `code`, in `authorizationCodeColumns` order.
    static func values(_ code: AuthorizationCode) -> [SQLiteValue] {
        [
            .blob(code.codeHash), .text(code.clientID), .text(code.redirectURI), .text(code.codeChallenge),
            .text(code.userID), .blob(code.sessionHash), .text(code.realm), .text(code.scope),
            .optionalText(code.audience), .optionalText(code.organizationID), .optionalText(code.nonce),
            .date(code.authTime), .text(AuthenticationMethodsColumn.encode(code.authenticationMethods) ?? ""),
            .date(code.createdAt), .date(code.expiresAt), .optionalDate(code.redeemedAt),
            .optionalText(code.refreshFamily), .optionalText(code.dpopThumbprint),
        ]
    }
}
