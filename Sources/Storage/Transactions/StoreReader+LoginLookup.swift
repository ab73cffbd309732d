extension StoreReader {
    /// The credential `credentialID` (when given and registered) and its user, read together: a login's lookup
    /// before it verifies the assertion. By default `loginCredentialStepByStep`; PostgreSQL answers in one
    /// statement, which the store behaviour suite holds to the same answers.
    public func loginCredential(id credentialID: [UInt8]?) throws(StorageError) -> LoginCredential {
        try loginCredentialStepByStep(id: credentialID)
    }

    /// The definition of `loginCredential`: the credential, then its user, each by its own lookup.
    public func loginCredentialStepByStep(id credentialID: [UInt8]?) throws(StorageError) -> LoginCredential {
        guard let credentialID, let credential = try credential(id: credentialID) else {
            return LoginCredential(credential: nil, user: nil)
        }
        return LoginCredential(credential: credential, user: try user(id: credential.userID))
    }
}
