/// `passkeyd orgs delete ORG`: deletes an organization and its memberships. Logins in it are refused from then on
/// (an unknown organization), and so are refreshes of tokens from earlier ones (their users are no members).
package struct OrgsDeleteCommand: OrganizationCommand, Equatable {
    package static let words = ["orgs", "delete"]
    package static let operands = [OrgsAddMemberCommand.organization]
    package static let summary = """
        Delete ORG (an id or a name) and its memberships; refreshes of its logins' tokens are refused from then
        on. Exit 1 when it is unknown.
        """

    package var options: AccountOptions
    package var request: OrganizationAdminRequest

    package init(_ arguments: ParsedArguments) {
        options = AccountOptions(arguments)
        request = .delete(organization: arguments.word(OrgsAddMemberCommand.organization))
    }
}
