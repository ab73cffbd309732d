/// What `StoreWriter.storeMetadataBLOB(_:)` did: the serial comparison happens inside the write, so of two nodes
/// loading at once neither can take the stored BLOB backwards (FIDO MDS 3.0 §3.1.6: `no` only ever grows).
public enum MetadataBLOBStoreOutcome: Sendable, Hashable {
    /// Stored: it is the newest now (any older one deleted).
    case stored
    /// The stored BLOB has the same serial and the same SHA-256: nothing written.
    case unchanged
    /// The stored BLOB is newer (serial `current`): nothing written.
    case older(current: Int64)
    /// The stored BLOB has the same serial but other content: nothing written (one of them is not the real one).
    case conflict

    /// The outcome of storing `new` over `current` (the stored row, nil when none): the one decision every driver
    /// takes inside its write.
    public static func deciding(_ new: MetadataBLOBRecord, over current: MetadataBLOBRecord?) -> Self {
        guard let current else { return .stored }
        if new.serial > current.serial { return .stored }
        if new.serial < current.serial { return .older(current: current.serial) }
        return new.sha256 == current.sha256 ? .unchanged : .conflict
    }
}
