/// An auth session read with a credential and its user: what a passkey login read before its auth session was
/// sealed (schema v16). No store operation answers it any more (`LoginCredential` replaced it); PostgreSQL's
/// former one-statement lookup still builds it.
public struct LoginLookup: Sendable, Equatable {
    /// The auth session, whatever its kind or expiry (the caller judges both).
    public var session: AuthSession
    /// The credential the assertion names, if it is registered.
    public var credential: Credential?
    /// The credential's user (nil without a credential).
    public var user: User?

    /// Creates a lookup result.
    public init(session: AuthSession, credential: Credential?, user: User?) {
        self.session = session
        self.credential = credential
        self.user = user
    }
}
