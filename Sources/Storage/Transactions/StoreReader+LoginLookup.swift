extension StoreReader {
    /// The definition of `loginLookup` (and the implementation of the drivers that need no other): the session,
    /// then the credential, then its user, each by its own lookup. A driver may answer in one statement instead;
    /// the store behaviour suite holds every driver to this one's answers.
    public func loginLookup(sessionID: String, credentialID: [UInt8]?) throws(StorageError) -> LoginLookup? {
        guard let session = try authSession(id: sessionID) else { return nil }
        guard let credentialID, let credential = try credential(id: credentialID) else {
            return LoginLookup(session: session, credential: nil, user: nil)
        }
        return LoginLookup(session: session, credential: credential, user: try user(id: credential.userID))
    }
}
