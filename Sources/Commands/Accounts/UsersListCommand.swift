/// `passkeyd users list [--after ID] [--limit N]`: the users in id order, a page at a time.
package struct UsersListCommand: AccountCommand, Equatable {
    /// `--after ID`: the page starts after this user.
    static let after = Option<String>("--after", "ID")
    /// `--limit N`: at most N users (default 100).
    static let limit = Option<Int>("--limit", "N", range: 1...10_000)

    package static let words = ["users", "list"]
    package static let flags: [any Flag] = [after, limit] + AccountOptions.flags
    package static let summary = """
        List the users (id, realm, name) in id order: at most N (default 100), from the one after ID.
        """

    package var options: AccountOptions
    package var request: AdminRequest

    package init(_ arguments: ParsedArguments) {
        options = AccountOptions(arguments)
        request = .listUsers(after: arguments[Self.after], limit: arguments[Self.limit] ?? 100)
    }
}
