import Foundation

/// The organizations' writes, each one `insert(_:)` or `delete(_:)` of its kind after the reads that tell why one
/// would do nothing.
extension StoreWriter {
    /// Stores a new organization.
    /// - Throws: `.conflict(.organizationName)` when the name is taken, `.conflict(.organizationID)` when the id is;
    ///   nothing is written then.
    public func insertOrganization(_ organization: Organization) throws(StorageError) {
        guard try self.organization(name: organization.name) == nil else { throw .conflict(.organizationName) }
        guard try insert(.organization(organization)) else {
            // A name taken by a concurrent writer between the read and the insert clashes here too.
            throw try self.organization(name: organization.name) == nil
                ? .conflict(.organizationID) : .conflict(.organizationName)
        }
    }

    /// Makes `member.userID` a member of `member.organizationID`; returns false, writing nothing, when they are one
    /// already.
    /// - Throws: `.notFound` when the organization or the user does not exist.
    public func addOrganizationMember(_ member: OrganizationMember) throws(StorageError) -> Bool {
        guard try organization(id: member.organizationID) != nil else {
            throw StorageError(.notFound, "no organization \(member.organizationID)")
        }
        guard try user(id: member.userID) != nil else {
            throw StorageError(.notFound, "no user \(member.userID) for the membership")
        }
        return try insert(.organizationMember(member))
    }

    /// Deletes the organization `id` and every membership of it; returns false when there is no such organization.
    /// The refresh-token families of logins in it keep its id, and stop refreshing (their users are no members).
    public func deleteOrganization(id: String) throws(StorageError) -> Bool {
        try delete(.organization(id: id))
    }

    /// Ends the membership of `userID` in `organizationID`; returns false when there was none.
    public func removeOrganizationMember(organizationID: String, userID: String) throws(StorageError) -> Bool {
        try delete(.organizationMember(organizationID: organizationID, userID: userID))
    }
}
