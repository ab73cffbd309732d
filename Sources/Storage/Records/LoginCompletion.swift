import Foundation

/// Everything a verified passkey login writes, as one unit (`StoreWriter.completeLogin`): the sealed auth session
/// spent (its id recorded, `StoreWriter.spendAuthSession`), the credential's counter compare-and-set, the user's locks lifted, the refresh token stored and the login's
/// security event appended.
public struct LoginCompletion: Sendable, Equatable {
    /// What the write did.
    public enum Outcome: Sendable, Equatable {
        /// The session was already spent (by another presentation, on any node): nothing was stored. Its expiry
        /// is the caller's to check before (it knows the sealed expiry).
        case sessionGone
        /// The session is spent, but another assertion moved the counter: nothing else was stored.
        case counterRace
        /// Session spent, counter and backup state stored, locks lifted, refresh token and event stored.
        case stored
    }

    /// The auth session the assertion answered.
    public var sessionID: String
    /// When that session expires: its spent record is kept until then.
    public var sessionExpiresAt: Date
    /// The counter compare-and-set and backup state (WebAuthn L3 §7.2 steps 21–24).
    public var use: CredentialUse
    /// The user who logged in.
    public var userID: String
    /// The first token of a new refresh family, when the login issues one.
    public var refreshToken: RefreshToken?
    /// The login's security event (appended as `StoreWriter.appendSecurityEvent` does).
    public var event: SecurityEvent
    /// A hosted login's session (`HostedLogin.complete`), stored with the login when given.
    public var loginSession: LoginSession? = nil
    /// A hosted login's authorization code, stored with the login when given.
    public var authorizationCode: AuthorizationCode? = nil
    /// The login session this browser held before, ended (and its end audited) by the write that stores
    /// `loginSession` in its place (`StoreWriter.insertHostedLogin(session:code:replacing:)`).
    public var replacedLoginSession: LoginSessionReplacement? = nil

    /// Creates a login completion.
    public init(
        sessionID: String, sessionExpiresAt: Date, use: CredentialUse, userID: String,
        refreshToken: RefreshToken?, event: SecurityEvent
    ) {
        self.sessionID = sessionID
        self.sessionExpiresAt = sessionExpiresAt
        self.use = use
        self.userID = userID
        self.refreshToken = refreshToken
        self.event = event
    }
}
