/// The sealed values, first stored and then re-sealed by compare-and-set (`replace(_:expected:replacement:)`).
extension StoreWriter {
    /// Replaces the stored private key of `kid` with `replacement` if it is still `expected` (compare-and-set: of
    /// nodes re-encrypting the same key at once, one replaces it). Returns false when the key is gone or was
    /// already replaced.
    public func replaceSigningKeyPrivateKey(kid: String, expected: [UInt8], replacement: [UInt8]) throws(StorageError)
        -> Bool
    {
        try replace(.signingKeyPrivateKey(kid: kid), expected: expected, replacement: replacement)
    }

    /// Replaces the stored verifier bytes of `userID` with `replacement` if they are still `expected`
    /// (compare-and-set: of nodes sealing the same verifier at once one replaces it, and a verifier the user
    /// replaced meanwhile is left alone). Returns false when the verifier is gone or no longer `expected`.
    public func replacePasswordVerifier(userID: String, expected: [UInt8], replacement: [UInt8]) throws(StorageError)
        -> Bool
    {
        try replace(.passwordVerifier(userID: userID), expected: expected, replacement: replacement)
    }

    /// Replaces the server secret `name` with `replacement` if it is still `expected` (compare-and-set: of nodes
    /// sealing it at once, one replaces it). Returns false when it is gone or no longer `expected`.
    public func replaceServerSecret(name: String, expected: [UInt8], replacement: [UInt8]) throws(StorageError) -> Bool
    {
        try replace(.serverSecret(name: name), expected: expected, replacement: replacement)
    }

    /// Stores the server secret `name` unless one exists, and returns the stored one: of concurrent first
    /// callers (nodes starting together), all get the same value (on PostgreSQL a losing insert waits for the
    /// winner's commit, and the read after it, a new READ COMMITTED snapshot, sees the winner's value).
    public func insertServerSecret(name: String, value: [UInt8]) throws(StorageError) -> [UInt8] {
        _ = try insert(.serverSecret(name: name, value: value))
        guard let stored = try serverSecret(name: name) else {
            throw StorageError(.internalFailure, "server secret \(name) missing after its insert")
        }
        return stored
    }
}
