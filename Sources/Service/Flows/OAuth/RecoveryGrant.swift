import Configuration
import Crypto
import Foundation
import Storage
import Tokens

/// `grant_type=urn:passkeyd:params:oauth:grant-type:recovery-code` with `auth_session` (from
/// `/recovery/challenge`) and `recovery_code` → a restricted access token (`RecoveryToken`: scope
/// `enroll:passkey`, ten minutes, its own audience, no refresh token, no ID token), bound to the request's DPoP key
/// when it carried a valid proof (RFC 9449 §5).
///
/// The session is spent by the first presentation whatever the outcome; one opened by another client is
/// `invalid_grant` and costs nothing else (no count, no code). The password fallback's throttle applies (per
/// identifier, known or not, and per client network; a lock after `RecoveryThrottleKeys.maximumFailures`),
/// judged and counted in the write that spends the session (`ThrottledAttempt`). The code is hashed once
/// (PBKDF2, `RecoveryCodes`), for an unknown identifier too, and consumed in one statement: single use.
package struct RecoveryGrant: Sendable {
    package let context: ServerContext

    /// What the token request presents, parsed.
    package struct Parameters: Sendable {
        /// `auth_session` as sent.
        package var authSession: String
        /// `recovery_code` as typed.
        package var recoveryCode: String
        package var client: ClientConfiguration
        /// The thumbprint of the request's verified DPoP proof (RFC 9449 §5), if any.
        package var dpopThumbprint: String?
        /// The client's address, for the per-network throttle.
        package var address: String

        package init(
            authSession: String, recoveryCode: String, client: ClientConfiguration, dpopThumbprint: String?,
            address: String
        ) {
            self.authSession = authSession
            self.recoveryCode = recoveryCode
            self.client = client
            self.dpopThumbprint = dpopThumbprint
            self.address = address
        }
    }

    /// What the grant's first write found and did: the spent session, and for a session of this client the
    /// user, their codes and the attempt judged and counted (nil for another client's: nothing counted).
    private struct SpentRecoverySession: Sendable {
        let session: AuthSession
        let user: User?
        let codes: [RecoveryCode]
        let attempt: ThrottledAttempt?
    }

    package init(context: ServerContext) {
        self.context = context
    }

    /// The restricted token response of a recovery.
    /// - Throws: 403 `invalid_grant` for the session or the code, 429 or 403 `recovery_locked` from the throttle.
    package func redeem(_ parameters: Parameters) async throws -> TokenResponse {
        let presentedCode = parameters.recoveryCode
        let client = parameters.client
        guard let handle = AuthSessionHandle(presented: parameters.authSession) else {
            throw OAuthError.invalidSession("session_malformed")
        }
        let now = context.clock.now()
        let sessionID = handle.sessionID
        let throttle = AccountRecovery.throttle(context.configuration)
        let clientID = client.clientID
        let address = parameters.address
        let spent = try await context.store.write { writer -> SpentRecoverySession? in
            guard let session = try writer.consumeAuthSession(id: sessionID, now: now), session.kind == .login,
                session.name == AccountRecovery.sessionMarker, let identifier = session.username
            else { return nil }
            // Another client's session: spent, refused below, and nothing else (no count, no code).
            guard session.clientID == clientID else {
                return SpentRecoverySession(session: session, user: nil, codes: [], attempt: nil)
            }
            let user = try session.userHandle.flatMap { try writer.user(userHandle: $0) }
            return SpentRecoverySession(
                session: session, user: user, codes: try user.map { try writer.recoveryCodes(userID: $0.id) } ?? [],
                attempt: try ThrottledAttempt.judge(
                    identityKey: FallbackCounterKey.recoveryIdentifier(realm: session.realm, identifier: identifier),
                    addressKey: ThrottledAttempt.recoveryAddressKey(address), throttle: throttle, writer: writer,
                    now: now))
        }
        guard let spent else {
            throw OAuthError.invalidSession("session_unknown", reason: "unknown, expired, used or not a recovery")
        }
        let session = spent.session
        // Judged only for a session of this client (above): another client's is refused here.
        guard let attempt = spent.attempt else {
            throw OAuthError.invalidSession("session_other_client", reason: "session of \(session.clientID)")
        }
        try await AccountRecovery.enforce(
            attempt.decision, userID: spent.user?.id, clientID: client.clientID, attempts: attempt.identityFailures,
            now: now, store: context.store)
        // The same work whatever was found: one PBKDF2 under the set's salt, or under a random one.
        let salt = try spent.codes.first?.salt ?? SecureRandom.bytes(count: RecoveryCodes.saltLength)
        let code = RecoveryCodes.normalized(presentedCode)
        let hash = try RecoveryCodes.hash(code ?? presentedCode, salt: salt)
        let userID = spent.user?.id
        // The token's `jti`, named by the success event so the audit log links the code to the passkey it adds.
        let tokenID = try TokenService.randomIdentifier()
        // One consuming write whatever was found (an unknown identifier consumes under an id no user has), so the
        // answer's timing does not tell whether the identifier exists.
        let accepted = try await context.store.write { writer -> Bool in
            guard try writer.consumeRecoveryCode(userID: userID ?? "", codeHash: hash), let userID, code != nil
            else { return false }
            try attempt.succeeded(writer)
            _ = try writer.appendSecurityEvent(
                PasskeyLifecycleAuditEvent.make(
                    .recoveryAttempt, now: now, userID: userID, clientID: client.clientID,
                    detail: RecoveryToken.eventDetail(jwtID: tokenID)))
            return true
        }
        guard accepted, let user = spent.user else {
            try await recordFailure(session, userID: userID, attempt: attempt, throttle: throttle, now: now)
            throw PasskeyLifecycleRefusal.recoveryNotVerified("recovery_bad_code", reason: "no such unused code")
        }
        context.metrics.count(event: "recovery_code_used")
        // One restricted access token (RFC 6749 §5.1) with `jti` `tokenID` (RFC 9068 §2.2; what its single use
        // spends), nothing else, minted by the token service as every access token.
        let grant = TokenService.Grant(
            user: user, clientID: client.clientID,
            access: RecoveryToken.access(
                issuer: context.configuration.issuer,
                algorithm: context.configuration.tokens.accessTokenSigningAlgorithm),
            authTime: now, authenticationMethods: RecoveryToken.authenticationMethods,
            dpopThumbprint: parameters.dpopThumbprint)
        return try await context.tokens.tokenResponse(for: grant, refreshToken: nil, now: now, jwtID: tokenID)
    }

    /// Records a failed recovery (counted already, when it was judged) and, from the limit on, the lock it starts.
    private func recordFailure(
        _ session: AuthSession, userID: String?, attempt: ThrottledAttempt, throttle: SRPThrottle, now: Date
    ) async throws {
        let failures = attempt.identityFailures
        try await context.store.write { writer in
            _ = try writer.appendSecurityEvent(
                PasskeyLifecycleAuditEvent.make(
                    .recoveryAttempt, outcome: PasskeyLifecycleAuditEvent.failure, now: now,
                    userID: userID, clientID: session.clientID, reasonCode: "bad_code", attempts: failures))
            if let failures, throttle.locks(atFailures: failures) {
                _ = try writer.appendSecurityEvent(
                    PasskeyLifecycleAuditEvent.make(
                        .recoveryLocked, now: now, userID: userID,
                        clientID: session.clientID, reasonCode: "max_failures", attempts: failures))
            }
        }
        context.metrics.count(event: "recovery_code_failed")
    }
}
