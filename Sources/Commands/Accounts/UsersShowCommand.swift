/// `passkeyd users show USER`: the user, passkeys, device keys, live sessions and recovery-code count.
package struct UsersShowCommand: AccountCommand, Equatable {
    /// The user's id.
    static let user = Operand("USER")

    package static let words = ["users", "show"]
    package static let operands = [user]
    package static let summary = """
        Show a user: realm, names, passkeys, device keys, the number of recovery codes left and whether a
        password verifier is set.
        """

    package var options: AccountOptions
    package var request: AdminRequest

    package init(_ arguments: ParsedArguments) {
        options = AccountOptions(arguments)
        request = .showUser(userID: arguments.word(Self.user))
    }
}
