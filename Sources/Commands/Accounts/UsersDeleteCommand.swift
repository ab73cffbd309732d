/// `passkeyd users delete USER`: as `DELETE /me`.
package struct UsersDeleteCommand: AccountCommand, Equatable {
    /// The user's id.
    static let user = Operand("USER")

    package static let words = ["users", "delete"]
    package static let operands = [user]
    package static let summary = """
        Delete a user and everything that is theirs, as DELETE /me does.
        """

    package var options: AccountOptions
    package var request: AdminRequest

    package init(_ arguments: ParsedArguments) {
        options = AccountOptions(arguments)
        request = .deleteUser(userID: arguments.word(Self.user))
    }
}
