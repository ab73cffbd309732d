import Configuration
import Foundation
import Storage

/// The signed-in user at the account endpoints (`/me/…`), as `AccountAuthentication` found them.
package struct AccountCaller: Sendable {
    /// The access token's subject.
    package let subject: AuthenticatedSubject
    /// The token's user.
    package let user: User
    /// Whether the token is a recovery's (`RecoveryToken`), which adds one passkey and does nothing else.
    package let viaRecovery: Bool
}

/// A caller who may add a passkey (`AccountAuthentication.enrolling`), with the client the token was issued to.
package struct EnrollingCaller: Sendable {
    package let caller: AccountCaller
    package let client: ClientConfiguration
}

/// Who is asking at the account endpoints. Every one needs an access token for the account API (`<issuer>me/`, which
/// a client asks for explicitly and no other API's token carries, so a token minted for an API never manages the
/// account); changes that a stolen refresh token must not buy need a fresh login (`FreshLoginRequirement`,
/// `FreshLoginRequirement.accountChangeMaxAge`). Adding a passkey also accepts the restricted token of a recovery (`RecoveryToken`), and
/// nothing else does.
package struct AccountAuthentication: Sendable {
    package let context: ServerContext
    /// The per-user request limit, applied as soon as the token's subject is known (the endpoints' hook).
    package let userRateLimit: @Sendable (AuthenticatedSubject) throws -> Void

    package init(context: ServerContext, userRateLimit: @escaping @Sendable (AuthenticatedSubject) throws -> Void) {
        self.context = context
        self.userRateLimit = userRateLimit
    }

    /// The signed-in user of an access token for the account API, within the per-user rate limit; with `scope`
    /// (Auth0's My Account API routes), a token granted that scope.
    /// - Throws: 401 `invalid_token` (the token, or its user gone), 403 `insufficient_scope`, 429 from the rate limit.
    package func signedIn(_ credentials: PresentedCredentials, requiring scope: AccountAPIScope? = nil) async throws
        -> AccountCaller
    {
        let subject = try await context.tokens.authenticate(credentials, audience: context.tokens.accountAudience)
        try Self.requireScope(scope, of: subject)
        try userRateLimit(subject)
        return AccountCaller(subject: subject, user: try await user(subject), viaRecovery: false)
    }

    /// `signedIn`, with a login at most `FreshLoginRequirement.accountChangeMaxAge` old.
    /// - Throws: also 401 `insufficient_user_authentication` with `max_age` (RFC 9470 step-up) naming `change`.
    package func freshlySignedIn(
        _ credentials: PresentedCredentials, change: String, requiring scope: AccountAPIScope? = nil
    ) async throws -> AccountCaller {
        let caller = try await signedIn(credentials, requiring: scope)
        try requireFreshLogin(caller.subject, change: change)
        return caller
    }

    /// Who may add a passkey: a freshly signed-in user, or the holder of an unspent recovery token (then
    /// `viaRecovery`); with the token's client. With `scope` (Auth0's My Account API routes) only an account-API
    /// token granted that scope: the recovery token is passkeyd's own, for `/me/passkeys` only.
    /// - Throws: as `freshlySignedIn`; 401 `invalid_token` for a spent recovery token or a client no longer
    ///   configured.
    package func enrolling(_ credentials: PresentedCredentials, requiring scope: AccountAPIScope? = nil) async throws
        -> EnrollingCaller
    {
        let subject: AuthenticatedSubject
        let viaRecovery: Bool
        do {
            subject = try await context.tokens.authenticate(credentials, audience: context.tokens.accountAudience)
            viaRecovery = false
        } catch let ordinary {
            guard scope == nil, let recovery = try await unspentRecoveryToken(credentials) else { throw ordinary }
            subject = recovery
            viaRecovery = true
        }
        if !viaRecovery {
            try Self.requireScope(scope, of: subject)
            try userRateLimit(subject)
            try requireFreshLogin(subject, change: "Adding a passkey")
        }
        let user = try await user(subject)
        guard let client = context.configuration.client(id: subject.clientID) else {
            throw OAuthError(.invalidToken, "The access token is invalid.", logCode: "token_client_gone")
        }
        return EnrollingCaller(
            caller: AccountCaller(subject: subject, user: user, viaRecovery: viaRecovery), client: client)
    }

    /// The subject of the recovery token `credentials` present, within the per-user rate limit; `nil` when they
    /// present no recovery token.
    /// - Throws: 401 `invalid_token` when the token has added a passkey already, or its session was revoked.
    private func unspentRecoveryToken(_ credentials: PresentedCredentials) async throws -> AuthenticatedSubject? {
        // A recovery token is for its own audience only, so every other endpoint refuses it; here it is accepted
        // with its scope and method, which only the recovery grant mints.
        guard
            let recovery = try? await context.tokens.authenticate(
                credentials, audience: RecoveryToken.audience(issuer: context.configuration.issuer),
                checkingSession: false),
            recovery.scope.contains(RecoveryToken.scope),
            recovery.authenticationMethods == RecoveryToken.authenticationMethods
        else { return nil }
        try userRateLimit(recovery)
        // Single use (`RecoveryToken`): once it has added a passkey, the token buys nothing (RFC 6750 §3.1). This
        // read answers early; the spend in the enrolment's write is what decides a race.
        let jwtID = recovery.tokenID
        if try await context.store.read({ try $0.isTokenSpent(jwtID: jwtID) }) {
            throw PasskeyLifecycleRefusal.recoveryTokenSpent(recovery)
        }
        try await context.tokens.checkSession(recovery)
        return recovery
    }

    /// RFC 6750 §3.1: a token without `scope` (when one is required) is refused 403 `insufficient_scope`, its
    /// challenge naming the scope.
    private static func requireScope(_ scope: AccountAPIScope?, of subject: AuthenticatedSubject) throws {
        guard let scope, !subject.scope.contains(scope.rawValue) else { return }
        var refusal = OAuthError(
            .insufficientScope, "The access token does not grant \(scope.rawValue).", logCode: "scope_missing",
            reason: "token scope lacks \(scope.rawValue)")
        refusal.requiredScope = scope.rawValue
        // RFC 9449 §7.1: a DPoP-bound token's request is answered with a DPoP challenge.
        if subject.dpopThumbprint != nil { refusal.resourceScheme = .dpop }
        throw refusal
    }

    private func requireFreshLogin(_ subject: AuthenticatedSubject, change: String) throws {
        let requirement = FreshLoginRequirement(for: .accountChange, in: context.configuration)
        if let refusal = requirement.stepUpRefusal(subject, now: context.clock.now(), change: change) { throw refusal }
    }

    private func user(_ subject: AuthenticatedSubject) async throws -> User {
        guard let user = try await context.store.read({ try $0.user(id: subject.sub) }) else {
            throw OAuthError(.invalidToken, "The access token is invalid.", logCode: "token_user_gone")
        }
        return user
    }
}
