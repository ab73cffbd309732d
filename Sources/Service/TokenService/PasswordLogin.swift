/// What a password login is, for the rules on what it buys (docs/password-fallback.md): a token whose `amr`
/// (RFC 8176 §2) names `pwd` came from the SRP-6a grant, or from a refresh of a family that grant started (a
/// refreshed token carries its family's `amr`). Such a token is only for the client's `password_login_audiences`
/// (`ResourceAuthorization`), and the device-key flows refuse it whatever its audience (`DeviceKeyCaller.admit`):
/// the password alone never enrols, re-enables or uses a device key, nor manages the account.
package enum PasswordLogin {
    /// RFC 8176 §2: "Password-based authentication".
    package static let method = "pwd"
    /// The `amr` of the SRP-6a grant.
    package static let authenticationMethods = [method]

    /// Whether `methods` (a token's or a family's `amr`) are a password login's.
    package static func isPasswordLogin(_ methods: [String]) -> Bool {
        methods.contains(method)
    }
}
