/// `passkeyd users unlock USER`: lifts the user's password and recovery locks, as a passkey login does.
package struct UsersUnlockCommand: AccountCommand, Equatable {
    /// The user's id.
    static let user = Operand("USER")

    package static let words = ["users", "unlock"]
    package static let operands = [user]
    package static let summary = """
        Lift the user's password and recovery locks, as a passkey login does.
        """

    package var options: AccountOptions
    package var request: AdminRequest

    package init(_ arguments: ParsedArguments) {
        options = AccountOptions(arguments)
        request = .unlockUser(userID: arguments.word(Self.user))
    }
}
