import Storage

/// What the grant found for an `auth_session`: the session and, for a login, the credential and its owner.
struct LoadedSession: Sendable {
    let session: AuthSession
    let credential: Credential?
    let user: User?
}
