extension StoreReader {
    /// The rule every store applies before inserting a user with its first credential: nothing may share the
    /// user's id, user handle or any of its identifiers in its realm, nor the credential's id, and the credential
    /// must be the user's. Checked in this order, so every store names the same constraint when several clash; the
    /// SQL drivers' UNIQUE constraints still guard against a row committed after the checks.
    package func checkNewUser(_ user: User, credential: Credential) throws(StorageError) {
        guard try self.user(id: user.id) == nil else { throw .conflict(.userID) }
        guard try self.user(userHandle: user.userHandle) == nil else { throw .conflict(.userHandle) }
        for identifier in user.identifiers where try self.user(realm: user.realm, identifier: identifier) != nil {
            throw .conflict(identifier.constraint)
        }
        guard try self.credential(id: credential.credentialID) == nil else { throw .conflict(.credentialID) }
        guard credential.userID == user.id else {
            throw StorageError(.conflict, "credential belongs to another user", constraint: .foreignKey)
        }
    }
}
