import Foundation

/// A hosted-login session (`login_sessions`): what the hosted page's cookie stands for, so that a second
/// `/authorize` in the same browser answers without a ceremony, and a logout on any node ends it. Only the SHA-256 of
/// the cookie value is stored: a database reader cannot present a session.
public struct LoginSession: Sendable, Hashable {
    /// SHA-256 of the cookie value (its key).
    public var idHash: [UInt8]
    /// The user who logged in.
    public var userID: String
    /// The realm of that login: a session serves `/authorize` in its realm only.
    public var realm: String
    /// When the user authenticated with a passkey (OIDC Core §2 `auth_time` of every code issued in the session).
    public var authTime: Date
    /// RFC 8176 `amr` of that ceremony.
    public var authenticationMethods: [String]
    /// When the session was created.
    public var createdAt: Date
    /// Its absolute end (`hosted_login.session_lifetime_seconds` after creation): no use extends it.
    public var expiresAt: Date
    /// When a logout (or the account's deletion) ended it; nil while live.
    public var endedAt: Date?

    /// Creates a login-session record.
    public init(
        idHash: [UInt8], userID: String, realm: String, authTime: Date, authenticationMethods: [String],
        createdAt: Date, expiresAt: Date, endedAt: Date? = nil
    ) {
        self.idHash = idHash
        self.userID = userID
        self.realm = realm
        self.authTime = authTime
        self.authenticationMethods = authenticationMethods
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.endedAt = endedAt
    }

    /// Whether the session serves at `now`: not ended, not expired.
    public func isLive(at now: Date) -> Bool {
        endedAt == nil && now < expiresAt
    }
}
