/// `passkeyd sessions revoke-all`: every refresh-token family of every user.
package struct SessionsRevokeAllCommand: AccountCommand, Equatable {
    package static let words = ["sessions", "revoke-all"]
    package static let summary = """
        End every session of every user: one write and one audit event.
        """

    package var options: AccountOptions
    package var request: AdminRequest

    package init(_ arguments: ParsedArguments) {
        options = AccountOptions(arguments)
        request = .revokeAllSessions
    }
}
