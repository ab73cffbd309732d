/// `passkeyd orgs remove-member ORG USER`: ends a user's membership of an organization: a login in it is refused
/// from then on, and so is the refresh of a token from an earlier one (`RefreshGrant`).
package struct OrgsRemoveMemberCommand: OrganizationCommand, Equatable {
    package static let words = ["orgs", "remove-member"]
    package static let operands = [OrgsAddMemberCommand.organization, OrgsAddMemberCommand.user]
    package static let summary = """
        End USER's membership of ORG (as add-member names them). Exit 1 when either is unknown or USER is no member.
        """

    package var options: AccountOptions
    package var request: OrganizationAdminRequest

    package init(_ arguments: ParsedArguments) {
        options = AccountOptions(arguments)
        request = .removeMember(
            organization: arguments.word(OrgsAddMemberCommand.organization),
            user: arguments.word(OrgsAddMemberCommand.user))
    }
}
