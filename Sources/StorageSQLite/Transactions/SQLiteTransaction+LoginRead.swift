import Storage

extension SQLiteTransaction {
    /// A login's read in one statement instead of the definition's two (`StoreReader+LoginLookup.swift`), as on
    /// PostgreSQL: the credential and its user in one joined row, the user's columns read from where the
    /// credential's end (`SQLiteStatement.reading(from:_:)`). Same answers (the store behaviour suite runs both).
    func loginCredential(id credentialID: [UInt8]?) throws(StorageError) -> LoginCredential {
        guard let credentialID else { return LoginCredential(credential: nil, user: nil) }
        let found = try one(Self.loginCredentialSQL, [.blob(credentialID)]) { (row) throws(StorageError) in
            let credential = try Self.credential(row)
            let user = try row.reading(from: Self.loginCredentialColumnCount) { () throws(StorageError) in
                try row.isNull(0) ? nil : try Self.user(row)
            }
            return LoginCredential(credential: credential, user: user)
        }
        return found ?? LoginCredential(credential: nil, user: nil)
    }

    /// The number of columns of a credential (where its user's begin in `loginCredentialSQL`).
    private static let loginCredentialColumnCount = Int32(columnNames(credentialColumns).count)

    private static let loginCredentialSQL = """
        SELECT \(qualified(credentialColumns, "c")), \(qualified(userColumns, "u"))
        FROM credentials c
        LEFT JOIN users u ON u.id = c.user_id
        WHERE c.credential_id = ?
        """
}
