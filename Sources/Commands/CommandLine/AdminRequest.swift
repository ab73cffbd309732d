import Service

/// One operator command on accounts (`passkeyd users|passkeys|sessions|device-keys …`).
public enum AdminRequest: Sendable, Equatable {
    /// `users list [--after ID] [--limit N]`.
    case listUsers(after: String?, limit: Int)
    /// `users show USER`: the user, passkeys, device keys, live sessions and recovery-code count.
    case showUser(userID: String)
    /// `users delete USER`: as `DELETE /me`.
    case deleteUser(userID: String)
    /// `users unlock USER`: lifts the user's password and recovery locks, as a passkey login does.
    case unlockUser(userID: String)
    /// `passkeys list USER`.
    case listPasskeys(userID: String)
    /// `passkeys revoke USER CREDENTIAL_ID` (base64url): removes the passkey (the last one too: the operator decides).
    case revokePasskey(userID: String, credentialID: String)
    /// `sessions revoke USER`: every refresh-token family.
    case revokeSessions(userID: String)
    /// `sessions revoke-all`: every refresh-token family of every user.
    case revokeAllSessions
    /// `device-keys revoke USER KEY_ID`.
    case revokeDeviceKey(userID: String, keyID: String)

    /// The usage lines of these commands.
    static let usage = """
          passkeyd users list [--after ID] [--limit N] [--json] [--actor NAME] [--config FILE] [--data-dir DIR]
          passkeyd users show USER | users delete USER | users unlock USER
          passkeyd passkeys list USER | passkeys revoke USER CREDENTIAL_ID
          passkeyd sessions revoke USER | sessions revoke-all
          passkeyd device-keys revoke USER KEY_ID
              Operator commands on the configured store, safe while the server runs (SQLite's writer lock,
              PostgreSQL's transactions). Each change is an audit event naming the operator (--actor, default
              $USER). --json prints JSON for scripts. Exit 0 on success, 1 when the user, passkey or key is unknown.
        """

    /// Parses the words after the noun (`users`, `passkeys`, …): `nil` when they are not a known command.
    package static func parse(noun: String, _ words: [String], after: String?, limit: Int) -> AdminRequest? {
        switch (noun, words.first, words.count) {
        case ("users", "list", 1): .listUsers(after: after, limit: limit)
        case ("users", "show", 2): .showUser(userID: words[1])
        case ("users", "delete", 2): .deleteUser(userID: words[1])
        case ("users", "unlock", 2): .unlockUser(userID: words[1])
        case ("passkeys", "list", 2): .listPasskeys(userID: words[1])
        case ("passkeys", "revoke", 3): .revokePasskey(userID: words[1], credentialID: words[2])
        case ("sessions", "revoke", 2): .revokeSessions(userID: words[1])
        case ("sessions", "revoke-all", 1): .revokeAllSessions
        case ("device-keys", "revoke", 3): .revokeDeviceKey(userID: words[1], keyID: words[2])
        default: nil
        }
    }
}
