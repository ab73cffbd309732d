import Service

/// What an operator command on accounts (`passkeyd users|passkeys|sessions|device-keys …`) asks of the store
/// (`AdminCommands.run`); the command line's types (`AccountCommand`) build it.
public enum AdminRequest: Sendable, Equatable {
    /// `users list [--after ID] [--limit N]`.
    case listUsers(after: String?, limit: Int)
    /// `users show USER`: the user, passkeys, device keys, live sessions and recovery-code count.
    case showUser(userID: String)
    /// `users delete USER`: as `DELETE /me`.
    case deleteUser(userID: String)
    /// `users unlock USER`: lifts the user's password and recovery locks, as a passkey login does.
    case unlockUser(userID: String)
    /// `passkeys list USER [--aaguid UUID]`: the user's passkeys, of one authenticator model when given.
    case listPasskeys(userID: String, aaguid: [UInt8]? = nil)
    /// `passkeys list --aaguid UUID [--after CREDENTIAL_ID] [--limit N]`: every user's passkeys of one authenticator
    /// model, in credential-id order, a page at a time (`--after` base64url).
    case listPasskeysOfAuthenticator(aaguid: [UInt8], after: [UInt8]?, limit: Int)
    /// `passkeys revoke USER CREDENTIAL_ID` (base64url): removes the passkey (the last one too: the operator decides).
    case revokePasskey(userID: String, credentialID: String)
    /// `sessions revoke USER`: every refresh-token family.
    case revokeSessions(userID: String)
    /// `sessions revoke-all`: every refresh-token family of every user.
    case revokeAllSessions
    /// `device-keys revoke USER KEY_ID`.
    case revokeDeviceKey(userID: String, keyID: String)

    /// Whether its output names passkeys (and so reads the stored FIDO metadata first).
    var namesPasskeys: Bool {
        switch self {
        case .showUser, .listPasskeys, .listPasskeysOfAuthenticator: true
        default: false
        }
    }
}
