/// `passkeyd passkeys list USER`.
package struct PasskeysListCommand: AccountCommand, Equatable {
    /// The user's id.
    static let user = Operand("USER")

    package static let words = ["passkeys", "list"]
    package static let operands = [user]
    package static let summary = """
        List the user's passkeys: credential id (base64url) and name.
        """

    package var options: AccountOptions
    package var request: AdminRequest

    package init(_ arguments: ParsedArguments) {
        options = AccountOptions(arguments)
        request = .listPasskeys(userID: arguments.word(Self.user))
    }
}
