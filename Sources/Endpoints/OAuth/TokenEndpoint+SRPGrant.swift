import Crypto
import Foundation
import HTTP
import JSON
import Service
import Storage

extension TokenEndpoint {
    /// What the SRP grant's first write found and did: the spent session and, once the session's client and realm
    /// are checked, the attempt judged and counted — or the check's refusal (then nothing was counted).
    private struct SpentSRPSession: Sendable {
        let session: SRPSession
        let judged: Result<JudgedSRPAttempt, any Error>
    }

    /// A checked request and its attempt.
    private struct JudgedSRPAttempt: Sendable {
        let request: GrantRequest
        let attempt: ThrottledAttempt
    }

    /// `grant_type=urn:passkeyd:params:oauth:grant-type:srp6a` with `auth_session` and `M1` → the token response
    /// plus `M2` (RFC 2945 §3), with `amr: ["pwd"]` (RFC 8176) and `auth_time`; bound to `dpop`'s key when the
    /// request carried a valid DPoP proof (RFC 9449 §5), like the passkey grant's.
    ///
    /// The session is spent by the first presentation whatever the outcome. The throttle is applied again here
    /// (challenges opened in advance do not bypass it), in the write that spends the session, which also counts the
    /// attempt as a failure (`ThrottledAttempt`: concurrent guesses are each judged on those before); M1 is compared
    /// in constant time. A wrong M1 — or an unknown identity, which can never produce one — is 403 `invalid_grant`
    /// and stays counted for the identity and the client's network; a right one resets the identity's count and
    /// takes the network's back.
    package func srpGrant(_ parameters: RequestParameters, client: ClientConfiguration, dpop: String?) async throws
        -> Response
    {
        let srp = try PasswordFallback.srp()
        let presentedSession = try parameters.string("auth_session", maxLength: 128)
        let proofText = try parameters.string("M1", maxLength: 128)
        guard let proof = Base64URL.decode(proofText) else { throw OAuthError.notBase64URL("M1") }
        guard proof.count == srp.hash.digestByteCount else {
            throw OAuthError(
                .invalidRequest, "Invalid M1: must be \(srp.hash.digestByteCount) bytes (SHA-256).",
                logCode: "m1_length", reason: "\(proof.count) bytes")
        }
        // A password login is only for the client's `password_login_audiences` (never the device-key or account API).
        let access = try requestedAccess(parameters, client: client, passwordLogin: true)
        let realmName = try parameters.optionalString("realm", maxLength: 128)
        guard let handle = AuthSessionHandle(presented: presentedSession) else {
            throw OAuthError.invalidSession("session_malformed")
        }
        let now = context.clock.now()
        let sessionID = handle.sessionID
        let throttle = SRPThrottle(context.configuration.srp)
        let spent = try await context.store.write { writer -> SpentSRPSession? in
            guard let session = try writer.consumeSRPSession(id: sessionID, now: now) else { return nil }
            // Another client's or realm's session is refused below, spent but not counted against the identity.
            let request: GrantRequest
            do {
                request = try self.checkedRequest(
                    sessionClientID: session.clientID, sessionRealm: session.realm, realmName: realmName,
                    client: client, access: access, now: now, dpop: dpop)
            } catch {
                return SpentSRPSession(session: session, judged: .failure(error))
            }
            let attempt = try ThrottledAttempt.judge(
                identityKey: FallbackCounterKey.identity(realm: session.realm, identity: session.identity),
                addressKey: ThrottledAttempt.srpAddressKey(session.address), throttle: throttle, writer: writer,
                now: now)
            return SpentSRPSession(
                session: session, judged: .success(JudgedSRPAttempt(request: request, attempt: attempt)))
        }
        guard let spent else {
            throw OAuthError.invalidSession("session_unknown", reason: "unknown, expired or already used")
        }
        let session = spent.session
        let (request, attempt) = try spent.judged.map { ($0.request, $0.attempt) }.get()
        try await PasswordFallbackEndpoints(context: context).enforce(
            attempt.decision, userID: session.userID, clientID: client.clientID, realm: session.realm,
            identity: session.identity, address: session.address, attempts: attempt.identityFailures, now: now)
        // RFC 5054 §2.6 / RFC 2945 §3: S, K, M1 (compared in constant time), M2. The same work for an unknown
        // identity, whose session carries a random stand-in verifier.
        let keys = try context.secrets.get()
        let serverProof = try srp.verifyClientProof(
            proof, identity: session.identity, salt: session.salt,
            verifier: try keys.verifier(session.verifier, boundTo: .session(session.id), width: srp.width),
            clientPublic: session.clientPublic,
            serverSecret: try keys.serverSecret(of: session), serverPublic: session.serverPublic)
        let user: User? =
            if let userID = session.userID, serverProof != nil {
                try await context.store.read { try $0.user(id: userID) }
            } else { nil }
        guard let serverProof, let user else {
            try await recordFailure(session, attempt: attempt, throttle: throttle, now: now)
            throw OAuthError.passwordNotVerified("srp_bad_proof", reason: "M1 does not match")
        }
        let refresh = try refreshTokenForLogin(
            user: user, request: request, authenticationMethods: PasswordLogin.authenticationMethods)
        try await context.store.write { writer in
            try attempt.succeeded(writer)
            // A password login lifts "password required" on the user's device keys (the unlock policy).
            _ = try writer.liftLoginLocks(userID: user.id, includingPasswordLock: false)
            if let refresh { try writer.insertRefreshToken(refresh.record) }
            _ = try writer.appendSecurityEvent(
                PasswordFallbackAuditEvent.make(
                    PasswordFallbackAuditEvent.success, outcome: "success", now: now, userID: user.id,
                    clientID: client.clientID,
                    detail: try PasswordFallbackEndpoints.attemptDetail(
                        realm: session.realm, identity: session.identity, address: session.address, reader: writer,
                        keys: keys)))
        }
        context.metrics.count(event: "srp_login")
        return .token(
            try await context.tokens.tokenResponse(
                for: TokenService.Grant(
                    user: user, clientID: client.clientID, access: request.access, authTime: now,
                    authenticationMethods: PasswordLogin.authenticationMethods, dpopThumbprint: request.dpopThumbprint,
                    sessionID: request.sessionID, isLogin: true),
                refreshToken: refresh?.value, now: now,
                extra: [JSONMember(key: "M2", value: .string(Base64URL.encode(serverProof)))]))
    }

    /// Records a failed SRP login (counted already, when it was judged) and, from `srp.max_failures` on, the lock it
    /// starts.
    private func recordFailure(_ session: SRPSession, attempt: ThrottledAttempt, throttle: SRPThrottle, now: Date)
        async throws
    {
        let failures = attempt.identityFailures
        try await context.store.write { writer in
            let detail = try PasswordFallbackEndpoints.attemptDetail(
                realm: session.realm, identity: session.identity, address: session.address, reader: writer,
                keys: try context.secrets.get())
            _ = try writer.appendSecurityEvent(
                PasswordFallbackAuditEvent.make(
                    PasswordFallbackAuditEvent.attempt, outcome: "failure", now: now, userID: session.userID,
                    clientID: session.clientID, reasonCode: "bad_proof", attempts: failures, detail: detail))
            if let failures, throttle.locks(atFailures: failures) {
                _ = try writer.appendSecurityEvent(
                    PasswordFallbackAuditEvent.make(
                        PasswordFallbackAuditEvent.locked, outcome: "success", now: now, userID: session.userID,
                        clientID: session.clientID, reasonCode: "max_failures", attempts: failures, detail: detail))
            }
        }
        context.metrics.count(event: "srp_login_failed")
    }
}
