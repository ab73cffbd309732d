/// What a passkey login reads before it verifies the assertion: the auth session and, when the assertion names a
/// registered credential, that credential and its user (`StoreReader.loginLookup`).
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
