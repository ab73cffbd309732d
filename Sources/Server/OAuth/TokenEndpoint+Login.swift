import HTTP
import Storage
import WebAuthn

extension TokenEndpoint {
    /// A login session: the credential found by `rawId`, WebAuthn L3 §7.2 on the assertion, then one write for
    /// the counter compare-and-set, the device-key unlock and the refresh token.
    func login(_ consumed: ConsumedSession, response: PublicKeyCredentialJSON, request: GrantRequest) async throws
        -> Response
    {
        let session = consumed.session
        let assertion = try response.authentication()
        // §7.2 steps 5–6: the credential must be registered, to a user of this realm.
        guard let credential = consumed.credential, let user = consumed.user else {
            throw OAuthError.ceremonyFailed("unknownCredential", reason: "no credential \(response.id)")
        }
        guard user.realm == session.realm else {
            throw OAuthError.ceremonyFailed("realmMismatch", reason: "credential of realm \(user.realm)")
        }
        guard let policy = originPolicies[request.client.clientID] else {
            throw OAuthError.bug("client without origin policy")
        }
        let expectations = AuthenticationExpectations(
            challenge: session.challenge, rpID: context.configuration.relyingParty.id, originPolicy: policy,
            userVerificationRequired: userVerificationRequired, credentialID: credential.credentialID,
            credentialPublicKey: try COSEKey(bytes: credential.publicKey), storedSignCount: credential.signCount,
            userHandle: user.userHandle)
        let verified = try AuthenticationVerifier(expectations: expectations).verify(assertion)
        // WebAuthn L3 §6.1.3: backup eligibility is fixed for a credential's life; a change means another
        // authenticator answered for it.
        guard verified.backupEligible == credential.backupEligible else {
            throw OAuthError.ceremonyFailed("backupEligibilityChanged", reason: "BE was \(credential.backupEligible)")
        }
        let refresh = try refreshTokenForLogin(user: user, request: request)
        let use = CredentialUse(
            credentialID: credential.credentialID, expectedSignCount: credential.signCount,
            newSignCount: verified.newSignCount, backedUp: verified.backedUp, usedAt: request.now)
        try await context.store.write { writer in
            // §7.2 step 22 under concurrency: only if no other assertion moved the counter meanwhile.
            guard try writer.recordCredentialUse(use) else {
                throw OAuthError.ceremonyFailed("counterRace", reason: "counter changed during verification")
            }
            // A fresh passkey login unlocks the user's device keys (DESIGN.md, device keys).
            _ = try writer.unlockDeviceKeys(userID: user.id)
            if let refresh { try writer.insertRefreshToken(refresh.record) }
        }
        context.metrics.count(event: "login")
        return try await context.tokens.tokenResponse(
            for: TokenService.Grant(
                user: user, clientID: request.client.clientID, scope: request.scope, audience: request.audience,
                authTime: request.now,
                authenticationMethods: Self.authenticationMethods(userVerified: verified.userVerified)),
            refreshToken: refresh?.value, now: request.now)
    }
}
