import Foundation

/// The organizations' reads of the in-memory store.
extension MemoryTransaction {
    func organization(id: String) throws(StorageError) -> Organization? {
        state.organizations[id]
    }

    func organization(name: String) throws(StorageError) -> Organization? {
        state.organizations.values.first { $0.name == name }
    }

    func organizations() throws(StorageError) -> [Organization] {
        state.organizations.values.sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
    }

    func organizationMembers(organizationID: String) throws(StorageError) -> [OrganizationMember] {
        (state.organizationMembers[organizationID] ?? [:]).values.sorted {
            Array($0.userID.utf8).lexicographicallyPrecedes(Array($1.userID.utf8))
        }
    }

    func isOrganizationMember(organizationID: String, userID: String) throws(StorageError) -> Bool {
        state.organizationMembers[organizationID]?[userID] != nil
    }
}
