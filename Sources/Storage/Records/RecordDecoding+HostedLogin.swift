import Foundation

/// The hosted login's rows (`login_sessions`, `authorization_codes`), the same for every SQL driver.
extension RecordDecoding {
    package static var loginSessionColumns: String {
        "id_hash, user_id, realm, auth_time, amr, created_at, expires_at, ended_at"
    }

    package static func loginSession(_ row: Row) throws(StorageError) -> LoginSession {
        LoginSession(
            idHash: try row.bytes(0), userID: try row.text(1), realm: try row.text(2), authTime: try row.date(3),
            authenticationMethods: try AuthenticationMethodsColumn.decode(row, 4) ?? [], createdAt: try row.date(5),
            expiresAt: try row.date(6), endedAt: try row.optionalDate(7))
    }

    package static var authorizationCodeColumns: String {
        """
            code_hash, client_id, redirect_uri, code_challenge, user_id, session_hash, realm, scope, audience, \
            organization_id, nonce, auth_time, amr, created_at, expires_at, redeemed_at, refresh_family, dpop_jkt
        """
    }

    package static func authorizationCode(_ row: Row) throws(StorageError) -> AuthorizationCode {
        AuthorizationCode(
            codeHash: try row.bytes(0), clientID: try row.text(1), redirectURI: try row.text(2),
            codeChallenge: try row.text(3), userID: try row.text(4), sessionHash: try row.bytes(5),
            realm: try row.text(6), scope: try row.text(7), audience: try row.optionalText(8),
            organizationID: try row.optionalText(9), nonce: try row.optionalText(10), authTime: try row.date(11),
            authenticationMethods: try AuthenticationMethodsColumn.decode(row, 12) ?? [], createdAt: try row.date(13),
            expiresAt: try row.date(14), redeemedAt: try row.optionalDate(15), refreshFamily: try row.optionalText(16),
            dpopThumbprint: try row.optionalText(17))
    }
}
