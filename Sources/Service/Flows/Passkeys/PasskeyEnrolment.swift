import Crypto
import Foundation
import JSON
import Storage
import WebAuthn

/// Adding a passkey to the signed-in user's account: creation options, then the attestation (WebAuthn L3 §7.1),
/// for a freshly signed-in user or the holder of a recovery token (`AccountAuthentication.enrolling`).
package struct PasskeyEnrolment: Sendable {
    package let context: ServerContext
    /// Judges (and in record mode records) the registration.
    package let verifier: CeremonyVerifier

    package init(context: ServerContext, verifier: CeremonyVerifier) {
        self.context = context
        self.verifier = verifier
    }

    /// `{authn_params_public_key, auth_session}`: creation options for the user, with `excludeCredentials` listing
    /// their passkeys (WebAuthn L3 §5.4) and the client's `hints`.
    ///
    /// The session is a registration session bound to the user's handle and no identifier: only `add` for the same
    /// user and client completes it (the webauthn grant refuses it).
    package func challenge(_ enrolling: EnrollingCaller) async throws -> JSONValue {
        let user = enrolling.caller.user
        let client = enrolling.client
        let configuration = context.configuration
        let now = context.clock.now()
        let handle = try AuthSessionHandle.generate()
        let challenge = try SecureRandom.bytes(count: 32)
        // The WebAuthn timeout plus the grace of a network round trip, as every ceremony's session.
        let session = AuthSession(
            id: handle.sessionID, clientID: client.clientID, realm: user.realm, kind: .signup, challenge: challenge,
            userHandle: user.userHandle, createdAt: now,
            expiresAt: CeremonyChallenges.sessionExpiry(now: now, configuration: configuration))
        let userID = user.id
        let existing = try await context.store.write { writer in
            try writer.insertAuthSession(session)
            return try writer.credentials(userID: userID)
        }
        let names = PasskeyRepresentation.names(user)
        let options = CreationOptions(
            challenge: challenge, userHandle: user.userHandle, userName: names.name, displayName: names.displayName,
            excluding: existing, hints: client.passkeyHints
        ).json(client: client, configuration: configuration)
        context.metrics.count(event: "passkey_add_challenge")
        return .object([
            JSONMember(key: "authn_params_public_key", value: options),
            JSONMember(key: "auth_session", value: .string(handle.value)),
        ])
    }

    /// The passkey `authnResponse` registers on the session `authSession` (both as sent). The session is spent by
    /// the first presentation, in the write that stores the passkey or in the refusal's; a 503 (nothing written,
    /// docs/api.md) leaves it for the client's retry. WebAuthn L3 §7.1 verifies the attestation; a credential id
    /// already registered (to anyone) is refused (§7.1 step 26). With a recovery token, the passkey spends the token
    /// in the same write (single use: a refused enrolment spends nothing) and the user's other sessions are revoked.
    /// - Throws: 403 `invalid_grant` for the session or the ceremony, 401 `invalid_token` for a spent recovery token.
    package func add(_ enrolling: EnrollingCaller, authSession: String, authnResponse: JSONValue) async throws
        -> Credential
    {
        let caller = enrolling.caller
        let (subject, user, viaRecovery) = (caller.subject, caller.user, caller.viaRecovery)
        let client = enrolling.client
        guard let handle = AuthSessionHandle(presented: authSession) else {
            throw OAuthError.invalidSession("session_malformed")
        }
        let now = context.clock.now()
        let sessionID = handle.sessionID
        let found = try await context.store.read { try $0.authSession(id: sessionID) }
        guard let session = found, now < session.expiresAt, session.kind == .signup,
            session.userHandle == user.userHandle, session.clientID == client.clientID,
            session.email == nil, session.phoneNumber == nil, session.username == nil
        else {
            try await spendSession(sessionID, now: now)
            throw OAuthError.invalidSession("session_unknown", reason: "unknown, expired, used or not this user's")
        }
        let credential: Credential
        do {
            let parsed = Result { () throws(WebAuthnError) in try PublicKeyCredentialJSON(json: authnResponse) }
            credential = try verifier.registeredCredential(
                challenge: session.challenge, credential: parsed, sent: authnResponse, client: client,
                realm: user.realm, userID: user.id, now: now, accountExists: true
            ).credential
        } catch {
            await refused(
                error, sessionID: sessionID, now: now,
                recording: PasskeyLifecycleAuditEvent.make(
                    .passkeyAdded, outcome: PasskeyLifecycleAuditEvent.failure, now: now,
                    userID: user.id, clientID: client.clientID, reasonCode: OAuthError.mapping(error).logCode))
            throw error
        }
        let userID = user.id
        let spentUntil = RecoveryToken.spentUntil(issuedAt: subject.issuedAt)
        do {
            try await context.store.write { writer in
                guard try writer.consumeAuthSession(id: sessionID, now: now) != nil else {
                    throw OAuthError.invalidSession("session_unknown", reason: "used by a concurrent request")
                }
                if viaRecovery {
                    // One statement decides, on any node: of concurrent enrolments with this token exactly one
                    // spends it; the others throw, rolling back their whole write (no second passkey).
                    guard try writer.spendToken(jwtID: subject.tokenID, expiresAt: spentUntil) else {
                        throw PasskeyLifecycleRefusal.recoveryTokenSpent(subject)
                    }
                }
                try writer.insertCredential(credential)
                _ = try writer.appendSecurityEvent(
                    PasskeyLifecycleAuditEvent.make(
                        .passkeyAdded, now: now, userID: userID, clientID: client.clientID,
                        credentialID: credential.credentialID, reasonCode: viaRecovery ? "recovery" : nil,
                        detail: viaRecovery ? RecoveryToken.eventDetail(jwtID: subject.tokenID) : nil))
                if viaRecovery {
                    // Whoever held the lost device's sessions loses them with the recovery.
                    let families = try writer.revokeRefreshTokens(userID: userID, now: now)
                    _ = try writer.appendSecurityEvent(
                        PasskeyLifecycleAuditEvent.make(
                            .sessionsRevoked, now: now, userID: userID,
                            clientID: client.clientID, reasonCode: "recovery", attempts: families))
                }
            }
        } catch let error as StorageError where error.code == .conflict {
            // §7.1 step 26: a credential id already registered is refused; nothing was written.
            let refusal = OAuthError.ceremonyFailed("credential_exists", reason: error.description)
            await refused(
                refusal, sessionID: sessionID, now: now,
                recording: PasskeyLifecycleAuditEvent.make(
                    .passkeyAdded, outcome: PasskeyLifecycleAuditEvent.failure, now: now,
                    userID: userID, clientID: client.clientID, credentialID: credential.credentialID,
                    reasonCode: refusal.logCode))
            throw refusal
        } catch {
            // A spent recovery token, a concurrent use of the session, the store failing.
            await refused(error, sessionID: sessionID, now: now, recording: nil)
            throw error
        }
        context.metrics.count(event: "passkey_added")
        return credential
    }

    /// Spends the session `sessionID` in a write of its own, appending `event` and `more` in it.
    private func spendSession(
        _ sessionID: String, now: Date, recording event: SecurityEvent? = nil, more: [SecurityEvent] = []
    ) async throws {
        try await context.store.write { writer in
            if let event { _ = try writer.appendSecurityEvent(event) }
            for event in more { _ = try writer.appendSecurityEvent(event) }
            _ = try writer.consumeAuthSession(id: sessionID, now: now)
        }
    }

    /// A refused enrolment: unless `error` is a 503 (nothing was written, docs/api.md, so the session stays for the
    /// client's retry), the session is spent and `event` recorded, in one write (best effort: the refusal is
    /// answered anyway; if the store fails again the session expires on its own).
    private func refused(_ error: any Error, sessionID: String, now: Date, recording event: SecurityEvent?) async {
        let mapped = OAuthError.mapping(error)
        if mapped.kind == .temporarilyUnavailable { return }
        // An authenticator policy refusal's own event (`authenticator_refused`) commits with it.
        _ = try? await spendSession(sessionID, now: now, recording: event, more: mapped.securityEvents)
    }
}
