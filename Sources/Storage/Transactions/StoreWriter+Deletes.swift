/// The named deletes, each `delete(_:)` of its kind.
extension StoreWriter {
    /// Deletes the credential `credentialID` of `userID`. Returns false when no such credential belongs to that
    /// user (someone else's credential is not touched).
    public func deleteCredential(id credentialID: [UInt8], userID: String) throws(StorageError) -> Bool {
        try delete(.credential(id: credentialID, userID: userID))
    }

    /// Deletes the recovery code of `userID` whose hash is `codeHash` and returns true, or returns false when there
    /// is none (already used, revoked, or wrong). Single use: of concurrent callers exactly one gets true.
    public func consumeRecoveryCode(userID: String, codeHash: [UInt8]) throws(StorageError) -> Bool {
        try delete(.recoveryCode(userID: userID, codeHash: codeHash))
    }

    /// Deletes the counters `keys`; returns how many existed.
    public func resetFallbackCounters(keys: [String]) throws(StorageError) -> Int {
        var deleted = 0
        for key in Set(keys) where try delete(.fallbackCounter(key: key)) { deleted += 1 }
        return deleted
    }
}
