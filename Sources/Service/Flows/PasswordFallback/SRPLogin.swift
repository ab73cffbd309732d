import Crypto
import Foundation
import JSON
import Storage

/// The flow of the SRP-6a grant (`grant_type=urn:passkeyd:params:oauth:grant-type:srp6a`): an `auth_session` from
/// `/srp/challenge` (`SRPChallenge`) and M1 in, the token response plus `M2` (RFC 2945 §3) out, with `amr: ["pwd"]`
/// (RFC 8176, `PasswordLogin`) and `auth_time`; bound to the DPoP key when the request carried a valid proof
/// (RFC 9449 §5), like the passkey grant's.
///
/// The session is spent by the first presentation whatever the outcome. The throttle is applied again here
/// (challenges opened in advance do not bypass it), in the write that spends the session, which also counts the
/// attempt as a failure (`ThrottledAttempt`: concurrent guesses are each judged on those before); M1 is compared in
/// constant time. A wrong M1 — or an unknown identity, which can never produce one — is 403 `invalid_grant` and
/// stays counted for the identity and the client's network; a right one resets the identity's count and takes the
/// network's back.
package struct SRPLogin: Sendable {
    package let context: ServerContext

    /// The grant request, as read from the token request.
    package struct Request: Sendable {
        /// The client, allowed the SRP grant.
        package let client: ClientConfiguration
        /// The presented `auth_session`.
        package let session: AuthSessionHandle
        /// The realm the request names, if any: the session must be of it.
        package let realmName: String?
        /// M1, checked for length.
        package let proof: PasswordFallback.ClientProof
        /// The API and scope granted, decided before the session is spent (`ResourceAuthorization`, for a password
        /// login: the client's `password_login_audiences`).
        package let access: AuthorizedAccess
        /// The thumbprint of the request's DPoP key (RFC 9449 §5), to which the tokens are bound.
        package let dpopThumbprint: String?

        package init(
            client: ClientConfiguration, session: AuthSessionHandle, realmName: String?,
            proof: PasswordFallback.ClientProof, access: AuthorizedAccess, dpopThumbprint: String?
        ) {
            self.client = client
            self.session = session
            self.realmName = realmName
            self.proof = proof
            self.access = access
            self.dpopThumbprint = dpopThumbprint
        }
    }

    /// What the first write found and did: the spent session and, once the session's client and realm are checked,
    /// the attempt judged and counted with the login's session id — or the check's refusal (then nothing was
    /// counted).
    private struct SpentSession: Sendable {
        let session: SRPSession
        let judged: Result<JudgedAttempt, any Error>
    }

    /// An attempt on a session of this client and realm.
    private struct JudgedAttempt: Sendable {
        /// The login's session: the access token's `sid` and the refresh-token family's id.
        let loginSessionID: String
        let attempt: ThrottledAttempt
    }

    package init(context: ServerContext) {
        self.context = context
    }

    /// Finishes the login `request` opened: the token response with `M2`.
    /// - Throws: `OAuthError` 403 `invalid_grant` for an unknown, spent, foreign or failed session, 429 or 403 when
    ///   the throttle delays or locks the identity or the network (recorded).
    package func finish(_ request: Request) async throws -> TokenResponse {
        let srp = try PasswordFallback.srp()
        let now = context.clock.now()
        let client = request.client
        let sessionID = request.session.sessionID
        let throttle = SRPThrottle(context.configuration.srp)
        let spent = try await context.store.write { writer -> SpentSession? in
            guard let session = try writer.consumeSRPSession(id: sessionID, now: now) else { return nil }
            // Another client's or realm's session is refused below, spent but not counted against the identity.
            let loginSessionID: String
            do {
                try SessionOwnership.check(
                    sessionClientID: session.clientID, sessionRealm: session.realm, client: client,
                    realmName: request.realmName)
                // UUIDv7 family ids append to the family index instead of dirtying a random leaf
                // (TimeOrderedIdentifier).
                loginSessionID = try TimeOrderedIdentifier.make(now: now)
            } catch {
                return SpentSession(session: session, judged: .failure(error))
            }
            let attempt = try ThrottledAttempt.judge(
                identityKey: FallbackCounterKey.identity(realm: session.realm, identity: session.identity),
                addressKey: ThrottledAttempt.srpAddressKey(session.address), throttle: throttle, writer: writer,
                now: now)
            return SpentSession(
                session: session, judged: .success(JudgedAttempt(loginSessionID: loginSessionID, attempt: attempt)))
        }
        guard let spent else {
            throw OAuthError.invalidSession("session_unknown", reason: "unknown, expired or already used")
        }
        let session = spent.session
        let (loginSessionID, attempt) = try spent.judged.map { ($0.loginSessionID, $0.attempt) }.get()
        let log = SRPAttemptLog(context: context)
        try await log.enforce(
            attempt.decision, userID: session.userID, clientID: client.clientID, realm: session.realm,
            identity: session.identity, address: session.address, attempts: attempt.identityFailures, now: now)
        // RFC 5054 §2.6 / RFC 2945 §3: S, K, M1 (compared in constant time), M2. The same work for an unknown
        // identity, whose session carries a random stand-in verifier.
        let keys = try context.secrets.get()
        let serverProof = try srp.verifyClientProof(
            request.proof.bytes, identity: session.identity, salt: session.salt,
            verifier: try keys.verifier(session.verifier, boundTo: .session(session.id), width: srp.width),
            clientPublic: session.clientPublic,
            serverSecret: try keys.serverSecret(of: session), serverPublic: session.serverPublic)
        let user: User? =
            if let userID = session.userID, serverProof != nil {
                try await context.store.read { try $0.user(id: userID) }
            } else { nil }
        guard let serverProof, let user else {
            try await log.recordFailure(session, attempt: attempt, throttle: throttle, now: now)
            throw OAuthError.passwordNotVerified("srp_bad_proof", reason: "M1 does not match")
        }
        let refresh = try context.tokens.loginRefreshToken(
            userID: user.id, client: client, access: request.access, familyID: loginSessionID, now: now,
            authenticationMethods: PasswordLogin.authenticationMethods, dpopThumbprint: request.dpopThumbprint)
        try await context.store.write { writer in
            try attempt.succeeded(writer)
            // A password login lifts "password required" on the user's device keys (the unlock policy).
            _ = try writer.liftLoginLocks(userID: user.id, includingPasswordLock: false)
            if let refresh { try writer.insertRefreshToken(refresh.record) }
            _ = try writer.appendSecurityEvent(
                PasswordFallbackAuditEvent.make(
                    .passwordAuthFallback, outcome: "success", now: now, userID: user.id,
                    clientID: client.clientID,
                    detail: try SRPAttemptLog.detail(
                        realm: session.realm, identity: session.identity, address: session.address, reader: writer,
                        keys: keys)))
        }
        context.metrics.count(event: "srp_login")
        return try await context.tokens.tokenResponse(
            for: TokenService.Grant(
                user: user, clientID: client.clientID, access: request.access, authTime: now,
                authenticationMethods: PasswordLogin.authenticationMethods, dpopThumbprint: request.dpopThumbprint,
                sessionID: loginSessionID, isLogin: true),
            refreshToken: refresh?.value, now: now,
            extra: [JSONMember(key: "M2", value: .string(Base64URL.encode(serverProof)))])
    }
}
