/// `passkeyd sessions revoke USER`: every refresh-token family of the user.
package struct SessionsRevokeCommand: AccountCommand, Equatable {
    /// The user's id.
    static let user = Operand("USER")

    package static let words = ["sessions", "revoke"]
    package static let operands = [user]
    package static let summary = """
        End every session (refresh-token family) of the user.
        """

    package var options: AccountOptions
    package var request: AdminRequest

    package init(_ arguments: ParsedArguments) {
        options = AccountOptions(arguments)
        request = .revokeSessions(userID: arguments.word(Self.user))
    }
}
