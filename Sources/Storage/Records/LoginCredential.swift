/// What a passkey login reads before it verifies the assertion (`StoreReader.loginCredential`): the credential the
/// assertion names, if it is registered, and that credential's user. The auth session is not read: it is sealed in
/// the `auth_session` value itself, and spent in the login's write (`LoginCompletion`).
public struct LoginCredential: Sendable, Equatable {
    /// The credential the assertion names, if it is registered.
    public var credential: Credential?
    /// The credential's user (nil without a credential).
    public var user: User?

    /// Creates a lookup result.
    public init(credential: Credential?, user: User?) {
        self.credential = credential
        self.user = user
    }
}
