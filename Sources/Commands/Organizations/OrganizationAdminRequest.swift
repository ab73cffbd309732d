/// What an operator command on organizations (`passkeyd orgs …`) asks of the store (`OrganizationCommands.run`);
/// the command line's types (`OrganizationCommand`) build it. ORG is an organization's id or name, USER a user's id
/// or an identifier (email, phone number, username) of a user of the default realm.
public enum OrganizationAdminRequest: Sendable, Equatable {
    /// `orgs create NAME [--display-name TEXT]`.
    case create(name: String, displayName: String?)
    /// `orgs list`: every organization, by name, with its member count.
    case list
    /// `orgs add-member ORG USER`.
    case addMember(organization: String, user: String)
    /// `orgs remove-member ORG USER`.
    case removeMember(organization: String, user: String)
    /// `orgs delete ORG`: the organization and its memberships.
    case delete(organization: String)
}
