/// `passkeyd orgs add-member ORG USER`: makes a user a member of an organization, so that a login in it succeeds.
package struct OrgsAddMemberCommand: OrganizationCommand, Equatable {
    /// The organization's id or name.
    static let organization = Operand("ORG")
    /// The user's id, or an identifier of a user of the default realm.
    static let user = Operand("USER")

    package static let words = ["orgs", "add-member"]
    package static let operands = [organization, user]
    package static let summary = """
        Make USER (an id, or an email, phone number or username of the default realm) a member of ORG (an id or a
        name). Exit 1 when either is unknown.
        """

    package var options: AccountOptions
    package var request: OrganizationAdminRequest

    package init(_ arguments: ParsedArguments) {
        options = AccountOptions(arguments)
        request = .addMember(organization: arguments.word(Self.organization), user: arguments.word(Self.user))
    }
}
