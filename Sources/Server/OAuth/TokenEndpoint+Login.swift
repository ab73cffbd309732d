import HTTP
import Storage
import WebAuthn

extension TokenEndpoint {
    /// A login session: the credential found by `rawId`, WebAuthn L3 §7.2 on the assertion, then one write that
    /// consumes the session, compare-and-sets the counter, unlocks device keys and stores the refresh token.
    func login(_ loaded: LoginLookup, response: PublicKeyCredentialJSON, request: GrantRequest) async throws
        -> Response
    {
        let session = loaded.session
        let assertion = try response.authentication()
        // §7.2 steps 5–6: the credential must be registered, to a user of this realm. An unknown one is the one
        // failure answered distinctly (`passkey_error: unknown_credential`, for signalUnknownCredential, WebAuthn L3
        // §5.1.10); a credential of another realm stays a generic failure.
        guard let credential = loaded.credential, let user = loaded.user else {
            throw OAuthError.unknownCredential(reason: "no credential \(response.id)")
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
        let sessionID = session.id
        let outcome = try await context.store.write { writer -> LoginWrite in
            // Single use: only the presentation whose write consumes the session goes on.
            guard try writer.consumeAuthSession(id: sessionID, now: request.now) != nil else { return .sessionGone }
            // §7.2 step 22 under concurrency: only if no other assertion moved the counter meanwhile. Returned,
            // not thrown, so the session's consumption still commits.
            guard try writer.recordCredentialUse(use) else { return .counterRace }
            // A fresh passkey login unlocks the user's device keys (DESIGN.md, device keys).
            _ = try writer.unlockDeviceKeys(userID: user.id)
            // It also lifts the password fallback's lock and the device keys' "password required".
            try PasswordFallback.afterLogin(writer, userID: user.id, includingPasswordLock: true)
            if let refresh { try writer.insertRefreshToken(refresh.record) }
            // The audit log's entry commits with the login (docs/audit.md): one more row in this write.
            _ = try writer.appendSecurityEvent(
                AuthenticationAuditEvent.make(
                    AuthenticationAuditEvent.login, outcome: AuthenticationAuditEvent.success, now: request.now,
                    userID: user.id, clientID: request.client.clientID, credentialID: use.credentialID,
                    familyID: refresh?.record.familyID))
            return .stored
        }
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

/// What the login's single write did.
enum LoginWrite: Sendable {
    /// The session was spent meanwhile by another presentation (or expired): nothing was stored.
    case sessionGone
    /// The session is spent, but another assertion moved the counter: nothing else was stored.
    case counterRace
    /// Session spent, counter and backup state stored, refresh token inserted.
    case stored
}
