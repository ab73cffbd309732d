extension StoreWriter {
    /// What a login of `userID` (passkey or SRP) lifts: the consecutive-biometric-failure counters of the user's
    /// device keys and, for a passkey login (`includingPasswordLock`), the identity locks of the user
    /// (`FallbackCounterKey.identityLocks`: the failed-password counter of their SRP identity and the failed-recovery
    /// counters of their identifiers; docs/password-fallback.md). Returns how many counters existed.
    public func liftLoginLocks(userID: String, includingPasswordLock: Bool) throws(StorageError) -> Int {
        var keys = try deviceKeys(userID: userID).map { FallbackCounterKey.biometric(keyID: $0.keyID) }
        if includingPasswordLock, let user = try user(id: userID) {
            keys += FallbackCounterKey.identityLocks(of: user, verifier: try passwordVerifier(userID: userID))
        }
        return keys.isEmpty ? 0 : try resetFallbackCounters(keys: keys)
    }

    /// Everything a verified passkey login writes, as one unit (`LoginCompletion`). By default
    /// `completeLoginStepByStep`; PostgreSQL answers in one statement, which the store behaviour suite holds to the
    /// same outcomes and effects.
    public func completeLogin(_ login: LoginCompletion) throws(StorageError) -> LoginCompletion.Outcome {
        try completeLoginStepByStep(login)
    }

    /// The definition of `completeLogin`, each step by its own operation: the session is spent (single use);
    /// only then the counter is compare-and-set (WebAuthn L3 §7.2 step 22 under concurrency); only then the user's
    /// device keys are unlocked (DESIGN.md, device keys), the login's locks lifted, the refresh token inserted and
    /// the event appended.
    public func completeLoginStepByStep(_ login: LoginCompletion) throws(StorageError) -> LoginCompletion.Outcome {
        guard try spendAuthSession(id: login.sessionID, expiresAt: login.sessionExpiresAt) else { return .sessionGone }
        // Returned, not thrown, so the session's spending still commits.
        guard try recordCredentialUse(login.use) else { return .counterRace }
        _ = try unlockDeviceKeys(userID: login.userID)
        _ = try liftLoginLocks(userID: login.userID, includingPasswordLock: true)
        if let refreshToken = login.refreshToken { try insertRefreshToken(refreshToken) }
        _ = try appendSecurityEvent(login.event)
        try insertHostedLogin(
            session: login.loginSession, code: login.authorizationCode, replacing: login.replacedLoginSession)
        return .stored
    }

    /// Stores a hosted login's session and authorization code, when given (a login's or a sign-up's write). A new
    /// session ends the one it replaces in the same browser (`replacing`: that session's hash and the event of its
    /// end) at its own creation, in the same write: re-authenticating (OIDC Core §3.1.2.1 `prompt=login` or an
    /// exceeded `max_age`, another account) leaves one live session per browser, not the old one alive beside the new
    /// until it expires. When the replaced session was live, its end is audited in the same write: the replacement's
    /// event, with the replaced session's user and the new session's creation time (an ended, expired or unknown
    /// session records nothing, as a logout of one does not).
    /// - Throws: `.internalFailure` when a row with the same key exists (random 32-byte values: a bug).
    public func insertHostedLogin(
        session: LoginSession?, code: AuthorizationCode?, replacing replaced: LoginSessionReplacement? = nil
    ) throws(StorageError) {
        if let session, try !insert(.loginSession(session)) {
            throw StorageError(.internalFailure, "login session hash already stored")
        }
        if let session, let replaced, replaced.sessionHash != session.idHash,
            let old = try loginSession(idHash: replaced.sessionHash)
        {
            let wasLive = old.isLive(at: session.createdAt)
            if try endLoginSession(idHash: replaced.sessionHash, at: session.createdAt), wasLive {
                var event = replaced.event
                event.userID = old.userID
                event.occurredAt = session.createdAt
                _ = try appendSecurityEvent(event)
            }
        }
        if let code, try !insert(.authorizationCode(code)) {
            throw StorageError(.internalFailure, "authorization code hash already stored")
        }
    }
}
