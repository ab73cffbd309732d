import JSON
import Replay
import Storage
import WebAuthn

extension WebAuthnGrant {
    /// A login `session` (opened and unexpired): the credential found by `rawId` (`loaded`), WebAuthn L3 §7.2 on
    /// the assertion, then one write that spends the session, compare-and-sets the counter, lifts the user's locks
    /// and stores what `completion` adds (the refresh token, or the hosted page's session and code). `credential` is
    /// the response as read from `sent` (the `authn_response` JSON).
    /// `isMember`: whether the user is a member of the session's organization (true for a session in none); a user
    /// who is not is refused once the assertion is verified (Auth0's `access_denied`), so that the answer tells
    /// nothing to whoever holds no passkey of theirs.
    package func login(
        _ session: AuthSession, _ loaded: LoginCredential, credential: Result<PublicKeyCredentialJSON, WebAuthnError>,
        sent: JSONValue, request: GrantRequest, isMember: Bool = true, completion: CeremonyCompletion = .tokens
    ) async throws -> CompletedCeremony {
        // The response's members are decoded first: a malformed response is refused as such, whatever else is wrong.
        let assertion = Result { () throws(WebAuthnError) in try credential.get().authentication() }
        // §7.2 steps 5–6: the credential must be registered, to a user of this realm. Refused here, before the
        // verifier (with no credential record there is nothing to verify, or to record, against). An unknown one is
        // the one failure answered distinctly (`passkey_error: unknown_credential`, for signalUnknownCredential,
        // WebAuthn L3 §5.1.10); a credential of another realm stays a generic failure.
        guard let stored = loaded.credential, let user = loaded.user else {
            _ = try assertion.get()
            throw OAuthError.unknownCredential(reason: "no credential \((try? credential.get().id) ?? "")")
        }
        guard user.realm == session.realm else {
            _ = try assertion.get()
            throw OAuthError.ceremonyFailed("realm_mismatch", reason: "credential of realm \(user.realm)")
        }
        let side = CeremonyRecording.AuthenticationSide(
            rpID: verifier.relyingPartyID.value,
            originPolicy: try completion.hosted?.originPolicy
                ?? verifier.originPolicy(for: request.client, realm: session.realm),
            challenge: session.challenge, userVerificationRequired: verifier.userVerificationRequired(request.client),
            storedKey: stored.publicKey, storedSignCount: stored.signCount,
            storedBackupState: BackupStateResult.Stored(
                backupEligible: stored.backupEligible, backedUp: stored.backedUp),
            userHandle: user.userHandle)
        // WebAuthn L3 §7.2 step 22 and §6.1.3: a counter that did not increase or a changed BE is refused; a
        // changed BS is stored below.
        let verified = try verifier.verifiedAssertion(
            assertion, sent: sent, side: side, credentialID: stored.credentialID, now: request.now)
        if let organizationID = session.organizationID, !isMember {
            throw OAuthError.notOrganizationMember(userID: user.id, organizationID: organizationID)
        }
        // The client's `compromised_at_login`, once the assertion proved the passkey (so the answer tells nothing to
        // whoever holds none): a refusal throws; a warning is recorded, in a write of its own before the login's, so
        // that no warned login goes unrecorded (a failing write is the login's 503).
        if let warned = try verifier.reportedAuthenticator(
            stored, userID: user.id, client: request.client, now: request.now)
        {
            try await context.store.write { _ = try $0.appendSecurityEvent(warned) }
        }
        let methods = Self.authenticationMethods(userVerified: verified.userVerified)
        let refresh =
            completion.issuesRefreshToken
            ? try request.refreshToken(for: user, authenticationMethods: methods, tokens: context.tokens) : nil
        let hosted = completion.hosted?.records(
            user: user, authenticationMethods: methods, organizationID: session.organizationID, now: request.now)
        let use = CredentialUse(
            credentialID: stored.credentialID, expectedSignCount: stored.signCount,
            newSignCount: verified.newSignCount, backedUp: verified.backedUp, usedAt: request.now)
        var write = LoginCompletion(
            sessionID: session.id, sessionExpiresAt: session.expiresAt, use: use, userID: user.id,
            refreshToken: refresh?.record,
            // The audit log's entry commits with the login (docs/audit.md).
            event: AuthenticationAuditEvent.make(
                .login, outcome: AuthenticationAuditEvent.success, now: request.now,
                userID: user.id, clientID: request.client.clientID, credentialID: use.credentialID,
                familyID: refresh?.record.familyID))
        (write.loginSession, write.authorizationCode) = (hosted?.session, hosted?.code)
        write.replacedLoginSession = completion.hosted?.replacedSession
        // One write: the session spent (single use), the counter compare-and-set (§7.2 step 22 under concurrency),
        // the user's device keys unlocked and the password fallback's locks lifted, the refresh token and the event
        // stored (StoreWriter+LoginCompletion.swift). One operation: PostgreSQL sends its COMMIT with it, and reads
        // back what it did if the connection is lost before any answer and the write is found committed.
        let outcome = try await context.store.writeOperation(
            recover: { [write] reader in try write.recordedOutcome(in: reader) },
            { [write] writer in try writer.completeLogin(write) })
        switch outcome {
        case .sessionGone:
            throw OAuthError.invalidSession("session_unknown", reason: "used by a concurrent request")
        case .counterRace:
            throw OAuthError.ceremonyFailed("counter_race", reason: "counter changed during verification")
        case .stored:
            break
        }
        context.metrics.count(event: "login")
        return CompletedCeremony(
            event: "login", user: user, userVerified: verified.userVerified, refreshToken: refresh?.value,
            request: request)
    }
}
