import Foundation
import Storage

/// The organizations' reads, each one statement.
extension PostgresTransaction {
    func organization(id: String) throws(StorageError) -> Organization? {
        try one(
            "SELECT \(Self.organizationColumns) FROM organizations WHERE id = $1", [.text(id)], Self.organization)
    }

    func organization(name: String) throws(StorageError) -> Organization? {
        try one(
            "SELECT \(Self.organizationColumns) FROM organizations WHERE name = $1", [.text(name)],
            Self.organization)
    }

    func organizations() throws(StorageError) -> [Organization] {
        try connection.query(
            "SELECT \(Self.organizationColumns) FROM organizations ORDER BY name COLLATE \"C\"", [], Self.organization)
    }

    func organizationMembers(organizationID: String) throws(StorageError) -> [OrganizationMember] {
        try connection.query(
            """
            SELECT \(Self.organizationMemberColumns) FROM organization_members WHERE organization_id = $1
            ORDER BY user_id COLLATE "C"
            """, [.text(organizationID)], Self.organizationMember)
    }

    func isOrganizationMember(organizationID: String, userID: String) throws(StorageError) -> Bool {
        try one(
            "SELECT 1 FROM organization_members WHERE organization_id = $1 AND user_id = $2",
            [.text(organizationID), .text(userID)]
        ) { (_) throws(StorageError) in true } ?? false
    }
}
