/// A row `StoreWriter.delete(_:)` deletes, by its key (and, for a user's row, its owner: another user's is not
/// touched).
public enum RecordKey: Sendable, Hashable {
    /// The credential `id` of `userID`.
    case credential(id: [UInt8], userID: String)
    /// The recovery code of `userID` whose hash is `codeHash`.
    case recoveryCode(userID: String, codeHash: [UInt8])
    /// The fallback counter `key`.
    case fallbackCounter(key: String)
    /// The membership of `userID` in the organization `organizationID`.
    case organizationMember(organizationID: String, userID: String)
    /// The organization `id`, with every membership of it (a driver deletes both or neither).
    case organization(id: String)
}
