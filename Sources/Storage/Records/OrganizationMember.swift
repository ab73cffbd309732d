import Foundation

/// A user's membership of an organization: a login in that organization is refused to anyone else.
public struct OrganizationMember: Sendable, Hashable {
    /// The organization's id.
    public var organizationID: String
    /// The member.
    public var userID: String
    /// When the user was added (by an operator, or by a sign-up in the organization).
    public var addedAt: Date

    /// Creates a membership record.
    public init(organizationID: String, userID: String, addedAt: Date) {
        self.organizationID = organizationID
        self.userID = userID
        self.addedAt = addedAt
    }
}
