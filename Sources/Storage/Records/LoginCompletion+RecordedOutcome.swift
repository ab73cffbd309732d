extension LoginCompletion {
    /// How many of the user's newest security events `recordedOutcome` looks through for this login's.
    static let recordedOutcomeEventWindow = 64

    /// What this login's write did, read back after its transaction was found committed while the write's own answer
    /// never arrived (`Store.writeOperation`'s `recover`: PostgreSQL's COMMIT sent with the login statement, the
    /// connection lost before any answer). The write stores the counter, the refresh token and the security event
    /// together or none of them (`completeLogin`), so each is evidence:
    /// - a refresh token decides both ways: `.stored` if its row is there, refused if not (its hash is this login's
    ///   alone, and nothing deletes the row within seconds but the user's own deletion);
    /// - without one, only what this login wrote can be found: the credential last used at this login's instant with
    ///   its new count, or the login's security event among the user's newest. Their absence proves nothing (another
    ///   node's login, its clock behind, may have overwritten the credential since; the user's events may have moved
    ///   past the window), so it is `nil`: the caller keeps its "outcome unknown".
    ///
    /// A refusal is `.counterRace` when the counter is no longer the one verified (the compare-and-set lost, or the
    /// credential is gone), else `.sessionGone` (the session was spent by another request).
    public func recordedOutcome(in reader: any StoreReader) throws(StorageError) -> Outcome? {
        let credential = try reader.credential(id: use.credentialID)
        if let refreshToken {
            guard try reader.refreshToken(hash: refreshToken.tokenHash) == nil else { return .stored }
            return credential?.signCount == use.expectedSignCount ? .sessionGone : .counterRace
        }
        if let credential, credential.lastUsedAt == use.usedAt, credential.signCount == use.newSignCount {
            return .stored
        }
        let events = try reader.securityEvents(userID: userID, limit: Self.recordedOutcomeEventWindow)
        let recorded = events.contains {
            $0.kind == event.kind && $0.occurredAt == event.occurredAt && $0.credentialID == use.credentialID
                && $0.clientID == event.clientID
        }
        return recorded ? .stored : nil
    }
}
