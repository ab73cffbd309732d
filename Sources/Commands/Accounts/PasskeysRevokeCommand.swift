/// `passkeyd passkeys revoke USER CREDENTIAL_ID`: removes the passkey (the last one too: the operator decides).
package struct PasskeysRevokeCommand: AccountCommand, Equatable {
    /// The user's id.
    static let user = Operand("USER")
    /// The passkey's credential id, base64url.
    static let credential = Operand("CREDENTIAL_ID")

    package static let words = ["passkeys", "revoke"]
    package static let operands = [user, credential]
    package static let summary = """
        Remove a passkey of the user (CREDENTIAL_ID in base64url; the last one too: the operator decides).
        """

    package var options: AccountOptions
    package var request: AdminRequest

    package init(_ arguments: ParsedArguments) {
        options = AccountOptions(arguments)
        request = .revokePasskey(userID: arguments.word(Self.user), credentialID: arguments.word(Self.credential))
    }
}
