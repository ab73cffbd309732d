import HTTP
import Storage
import WebAuthn

extension TokenEndpoint {
    /// A login session: the credential found by `rawId`, WebAuthn L3 §7.2 on the assertion, then one write that
    /// consumes the session, compare-and-sets the counter, lifts the user's locks and stores the refresh token.
    func login(_ loaded: LoginLookup, response: PublicKeyCredentialJSON, request: GrantRequest) async throws
        -> Response
    {
        let session = loaded.session
        let assertion = try response.authentication()
        // §7.2 steps 5–6: the credential must be registered, to a user of this realm.
        guard let credential = loaded.credential, let user = loaded.user else {
            throw OAuthError.ceremonyFailed("unknown_credential", reason: "no credential \(response.id)")
        }
        guard user.realm == session.realm else {
            throw OAuthError.ceremonyFailed("realm_mismatch", reason: "credential of realm \(user.realm)")
        }
        guard let policy = originPolicies[request.client.clientID] else {
            throw OAuthError.bug("client without origin policy")
        }
        let expectations = AuthenticationExpectations(
            challenge: session.challenge, rpID: relyingPartyID, originPolicy: policy,
            userVerificationRequired: userVerificationRequired(request.client), credentialID: credential.credentialID,
            credentialPublicKey: try COSEKey(bytes: credential.publicKey), storedSignCount: credential.signCount,
            storedBackupState: BackupStateResult.Stored(
                backupEligible: credential.backupEligible, backedUp: credential.backedUp),
            userHandle: user.userHandle)
        let verified = try AuthenticationVerifier(expectations: expectations).verify(assertion)
        // WebAuthn L3 §7.2 step 22 and §6.1.3: a counter that did not increase or a changed BE is refused; a
        // changed BS is stored below.
        try ceremonyPolicy.evaluate(verified).get()
        let refresh = try refreshTokenForLogin(user: user, request: request)
        let use = CredentialUse(
            credentialID: credential.credentialID, expectedSignCount: credential.signCount,
            newSignCount: verified.newSignCount, backedUp: verified.backedUp, usedAt: request.now)
        let completion = LoginCompletion(
            sessionID: session.id, now: request.now, use: use, userID: user.id, refreshToken: refresh?.record,
            // The audit log's entry commits with the login (docs/audit.md).
            event: AuthenticationAuditEvent.make(
                AuthenticationAuditEvent.login, outcome: AuthenticationAuditEvent.success, now: request.now,
                userID: user.id, clientID: request.client.clientID, credentialID: use.credentialID,
                familyID: refresh?.record.familyID))
        // One write: the session spent (single use), the counter compare-and-set (§7.2 step 22 under concurrency),
        // the user's device keys unlocked and the password fallback's locks lifted, the refresh token and the event
        // stored (StoreWriter+LoginCompletion.swift).
        let outcome = try await context.store.write { try $0.completeLogin(completion) }
        switch outcome {
        case .sessionGone:
            throw OAuthError.invalidSession("session_unknown", reason: "used by a concurrent request")
        case .counterRace:
            throw OAuthError.ceremonyFailed("counter_race", reason: "counter changed during verification")
        case .stored:
            break
        }
        return try await ceremonyTokens(
            event: "login", user: user, userVerified: verified.userVerified, refreshToken: refresh?.value,
            request: request)
    }
}
