import Foundation
import Storage

/// The organizations' reads, each one statement.
extension SQLiteTransaction {
    func organization(id: String) throws(StorageError) -> Organization? {
        try one(
            "SELECT \(Self.organizationColumns) FROM organizations WHERE id = ?", [.text(id)], Self.organization)
    }

    func organization(name: String) throws(StorageError) -> Organization? {
        try one(
            "SELECT \(Self.organizationColumns) FROM organizations WHERE name = ?", [.text(name)],
            Self.organization)
    }

    func organizations() throws(StorageError) -> [Organization] {
        try database.query(
            "SELECT \(Self.organizationColumns) FROM organizations ORDER BY name", [], Self.organization)
    }

    func organizationMembers(organizationID: String) throws(StorageError) -> [OrganizationMember] {
        try database.query(
            """
            SELECT \(Self.organizationMemberColumns) FROM organization_members WHERE organization_id = ?
            ORDER BY user_id
            """, [.text(organizationID)], Self.organizationMember)
    }

    func isOrganizationMember(organizationID: String, userID: String) throws(StorageError) -> Bool {
        try one(
            "SELECT 1 FROM organization_members WHERE organization_id = ? AND user_id = ?",
            [.text(organizationID), .text(userID)]
        ) { (_) throws(StorageError) in true } ?? false
    }
}
