extension StoreReader {
    /// The auth session `sessionID` with the credential `credentialID` (when given and registered) and its user,
    /// read together: a login's lookup before it verifies the assertion. nil when the session is unknown; its kind
    /// and expiry are the caller's to judge. By default `loginLookupStepByStep`; PostgreSQL answers in one
    /// statement, which the store behaviour suite holds to the same answers.
    public func loginLookup(sessionID: String, credentialID: [UInt8]?) throws(StorageError) -> LoginLookup? {
        try loginLookupStepByStep(sessionID: sessionID, credentialID: credentialID)
    }

    /// The definition of `loginLookup`: the session, then the credential, then its user, each by its own lookup.
    public func loginLookupStepByStep(sessionID: String, credentialID: [UInt8]?) throws(StorageError) -> LoginLookup? {
        guard let session = try authSession(id: sessionID) else { return nil }
        guard let credentialID, let credential = try credential(id: credentialID) else {
            return LoginLookup(session: session, credential: nil, user: nil)
        }
        return LoginLookup(session: session, credential: credential, user: try user(id: credential.userID))
    }
}
