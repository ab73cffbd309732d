import Configuration
import Foundation
import Storage
import Tokens

/// `grant_type=refresh_token` (RFC 6749 §6) with rotation on every use and reuse detection
/// (RFC 9700 §4.14.2): one write reads the presented token (and, when it was rotated, its successor), lets
/// `RefreshTokenPolicy` decide, checks the request against a token that may rotate, rotates it (the store's
/// compare-and-set) and mints the answer.
///
/// A rotated token presented again within `tokens.refresh_token_reuse_grace_seconds` while its successor was never
/// presented is the client's retry of a rotation whose answer it lost (the policy's `.retry`): it goes the way of a
/// rotation, except that the store's compare-and-set spends the unreceived successor (`reissueRefreshToken`) and a
/// refused request check is reuse (a retry repeats a request that passed them).
///
/// A refused refresh leaves the presented token as it was, so that a client retrying with other parameters
/// is not taken for a thief (a retry of a spent token revokes the family). Every way a refresh can be
/// refused once its token is recognised is therefore decided before the rotation:
/// - before the store: `refresh_token`, `scope` and `audience` malformed (`invalid_request`, when the request is
///   parsed), the client unknown or without the grant, the signing key not loadable (500);
/// - in the write, before the rotation: the token unknown or another client's; the policy's decision (reuse
///   revokes the family and that commits; revoked or expired change nothing); for a token that may rotate, a
///   `scope` wider than the granted one (`invalid_scope`) or an `audience` outside the family's grant and the
///   client's refresh token policies (`access_denied`, both `ResourceAuthorization.reauthorize`), the user gone, a
///   DPoP-bound token without a proof by its key (`invalid_dpop_proof`, RFC 9449 §5; `DPoPRefreshBinding`), and a
///   family of a login in an organization whose user is no longer its member (`access_denied`) (a spent token is
///   judged by the policy alone, so a replay with other parameters is still reuse);
/// - the rotation itself: lost to a concurrent presentation of the same token, which is then judged again as a
///   second presentation (reuse; two presentations at once are no client's retry);
/// - after the rotation, in the same write: minting (a failure throws, which rolls the rotation back).
/// Nothing can fail after the commit. Every refusal in the write, the request's own checks included, is a
/// security event committed by that write (docs/audit.md); only a storage or server failure rolls it back.
package struct RefreshGrant: Sendable {
    package let context: ServerContext

    /// What the token request presents, parsed.
    package struct Parameters: Sendable {
        /// `refresh_token`.
        package var token: Tokens.RefreshToken
        /// `scope` as sent (RFC 6749 §6: at most the granted scope), `nil` when absent.
        package var scope: Scope?
        /// `audience` as sent, `nil` when absent.
        package var audience: String?
        package var client: ClientConfiguration
        /// The thumbprint of the request's verified DPoP proof (RFC 9449 §5), if any.
        package var dpopThumbprint: String?

        package init(
            token: Tokens.RefreshToken, scope: Scope?, audience: String?, client: ClientConfiguration,
            dpopThumbprint: String?
        ) {
            self.token = token
            self.scope = scope
            self.audience = audience
            self.client = client
            self.dpopThumbprint = dpopThumbprint
        }
    }

    /// What the rotating write decided; reuse is reported after the family revocation has committed.
    package enum Outcome: Sendable {
        case rotated(TokenResponse)
        /// A retry within the grace window: the unreceived successor spent, another issued.
        case retried(TokenResponse)
        /// Refused, and why: the answer, the audit event and the reuse metric all come from the refusal.
        case refused(RefreshRefusal)
    }

    package init(context: ServerContext) {
        self.context = context
    }

    /// The token response of a rotation.
    /// - Throws: the refusal (`invalid_grant`, `invalid_scope`, `access_denied`, `invalid_dpop_proof`), committed as
    ///   a security event first.
    package func rotate(_ parameters: Parameters) async throws -> TokenResponse {
        let presented = parameters.token
        let now = context.clock.now()
        let tokens = context.tokens
        // Loaded before the write: a key reload reads the store, and a failure here spends nothing.
        let signers = try await tokens.currentSigners()
        let clientID = parameters.client.clientID
        let outcome = try await context.store.write { writer -> Outcome in
            // Read once, for the decision and for the audit entry (user and family do not change on rotation).
            let stored = try writer.refreshToken(hash: presented.hash)
            let outcome = try Self.refresh(
                presented: presented, stored: stored, requestedScope: parameters.scope, audience: parameters.audience,
                client: parameters.client, dpop: parameters.dpopThumbprint, tokens: tokens, signers: signers,
                writer: writer, now: now)
            // Every outcome enters the audit log in the same write (docs/audit.md).
            _ = try writer.appendSecurityEvent(Self.auditEvent(outcome, clientID: clientID, stored: stored, now: now))
            return outcome
        }
        switch outcome {
        case .refused(let refusal):
            if refusal.revokedFamily { context.metrics.count(event: "refresh_token_reuse") }
            throw refusal.error
        case .rotated(let answer):
            return answer
        case .retried(let answer):
            context.metrics.count(event: "refresh_token_retry")
            return answer
        }
    }

    /// The audit event of a refresh: rotated, retried, refused (reason: its log code), or reuse (the family revoked).
    package static func auditEvent(
        _ outcome: Outcome, clientID: String, stored: Storage.RefreshToken?, now: Date
    ) -> SecurityEvent {
        // The stored token, when known, names the user and the family (another client's token names neither).
        let stored = stored.flatMap { $0.clientID == clientID ? $0 : nil }
        switch outcome {
        case .rotated:
            return AuthenticationAuditEvent.make(
                .refresh, outcome: AuthenticationAuditEvent.success, now: now,
                userID: stored?.userID, clientID: clientID, familyID: stored?.familyID)
        case .retried:
            return AuthenticationAuditEvent.make(
                .refreshRetry, outcome: AuthenticationAuditEvent.success, now: now,
                userID: stored?.userID, clientID: clientID, familyID: stored?.familyID)
        case .refused(let refusal):
            return AuthenticationAuditEvent.make(
                refusal.auditKind, outcome: AuthenticationAuditEvent.failure, now: now, userID: stored?.userID,
                clientID: clientID, familyID: stored?.familyID, reasonCode: refusal.error.logCode)
        }
    }

    /// The body of the rotating write (see `RefreshGrant`).
    package static func refresh(
        presented: Tokens.RefreshToken, stored: Storage.RefreshToken?, requestedScope: Scope?, audience: String?,
        client: ClientConfiguration, dpop: String?, tokens: TokenService, signers: TokenSigners,
        writer: any StoreWriter, now: Date
    ) throws -> Outcome {
        let clientID = client.clientID
        guard let stored else {
            return .refused(.unknownToken)
        }
        // RFC 6749 §6: the token must have been issued to the authenticated client; nothing changes otherwise.
        guard stored.clientID == clientID else { return .refused(.otherClient) }
        let successor = try Self.successor(of: stored, reader: writer)
        let decision = tokens.refreshPolicy.decide(RefreshTokenState(stored, successor: successor), now: now)
        let expiry: RefreshTokenExpiry
        // The unreceived successor a retry spends; nil for a rotation.
        let superseded: Storage.RefreshToken?
        switch decision {
        case .rotate(let next):
            (expiry, superseded) = (next, nil)
        case .retry(let next):
            guard let successor else { throw OAuthError.bug("a retry decided without a successor") }
            (expiry, superseded) = (next, successor)
        case .reuseDetected, .expired, .revoked:
            return try Self.refusal(decision, tokenHash: presented.hash, writer: writer, now: now)
        }
        // The request's own checks guard a token that may rotate only: a spent one was refused above whatever
        // was asked, so that its reuse still revokes the family (RFC 9700 §4.14.2).
        guard let grantedScope = Scope(parsing: stored.scope) else {
            throw OAuthError.bug("stored scope does not parse")
        }
        // Refusals of the request return, rather than throw: nothing was written yet, so the refusal commits as its
        // event alone and the token is left unchanged. A wider scope, another audience or a bound token without its
        // key's proof is what a thief's presentation looks like.
        let access: AuthorizedAccess
        do {
            // A family from before APIs existed was granted for the issuer's own API.
            access = try tokens.authorization.reauthorize(
                client: client, grantedAudience: stored.audience ?? tokens.defaultAudience,
                grantedScope: grantedScope, audience: audience, scope: requestedScope,
                loginMethods: stored.authenticationMethods)
            // RFC 9449 §5: a bound token needs a proof by its key (refused before the rotation, like the others).
            try DPoPRefreshBinding.check(stored, proofThumbprint: dpop, reader: writer)
        } catch let refusal as OAuthError where refusal.kind != .serverError {
            // A retry repeats a request that passed these checks: failing them, it is another presentation of a
            // spent token.
            guard superseded == nil else {
                return try Self.refusal(.reuseDetected, tokenHash: presented.hash, writer: writer, now: now)
            }
            return .refused(.request(refusal))
        }
        guard let user = try writer.user(id: stored.userID) else {
            return .refused(.userGone)
        }
        // A family of a login in an organization refreshes while its user is a member still (`orgs remove-member`
        // ends that): refused as Auth0 refuses a non-member's login, the token left as it was.
        if let organizationID = stored.organizationID,
            !(try writer.isOrganizationMember(organizationID: organizationID, userID: user.id))
        {
            return .refused(.request(.notOrganizationMember(userID: user.id, organizationID: organizationID)))
        }
        let replacement = try tokens.newRefreshToken(
            // The family keeps its original grant: a narrowed refresh narrows these tokens only.
            familyID: stored.familyID, clientID: clientID, userID: stored.userID, scope: stored.scope,
            audience: stored.audience ?? tokens.defaultAudience, authTime: stored.authTime,
            authenticationMethods: stored.authenticationMethods, now: now, expiry: expiry,
            dpopThumbprint: stored.dpopThumbprint, organizationID: stored.organizationID)
        let applied =
            if let superseded {
                try writer.reissueRefreshToken(
                    presentedHash: presented.hash, supersededHash: superseded.tokenHash, now: now,
                    replacement: replacement.record)
            } else {
                try writer.markRefreshTokenRotated(
                    presentedHash: presented.hash, now: now, replacement: replacement.record)
            }
        guard applied else {
            // A concurrent presentation of the same token rotated (or revoked) it after our read: it is spent
            // now, so this presentation gets what a second one would (RFC 9700 §4.14.2: reuse revokes the
            // family), and racing the client is no way round reuse detection.
            return try Self.refusalAfterLostRotation(
                tokenHash: presented.hash, policy: tokens.refreshPolicy, writer: writer, now: now)
        }
        // The family's organization keeps its `org_id`; its name is read for `org_name` only when the tokens
        // carry one (an organization gone since leaves `org_id` alone).
        let organizationName =
            try stored.organizationID.flatMap { id in
                tokens.configuration.allowOrganizationNameInAuthenticationAPI ? try writer.organization(id: id) : nil
            }?.name
        // Minted inside the write: if signing fails, the throw rolls the rotation back.
        let answer = try tokens.tokenResponse(
            for: TokenService.Grant(
                // The family's login: its `auth_time` and `amr` (OIDC Core §12.2: a refreshed ID token keeps
                // `auth_time`; RFC 8176 says how the user authenticated, which a refresh does not change). A
                // family from before its `amr` was stored says `hwk`, as it did then.
                user: user, clientID: clientID, access: access, authTime: stored.authTime,
                authenticationMethods: stored.authenticationMethods ?? ["hwk"],
                // The family's key, or the proof's for an unbound family (its access token only).
                dpopThumbprint: stored.dpopThumbprint ?? dpop, sessionID: stored.familyID,
                organizationID: stored.organizationID, organizationName: organizationName),
            refreshToken: replacement.value, now: now, signers: signers)
        return superseded == nil ? .rotated(answer) : .retried(answer)
    }

    /// The successor of a rotated, unrevoked token, read to tell a retry from reuse; `nil` for a live token and for
    /// one whose successor is unknown (rotated before successors were recorded, or superseded by a retry).
    static func successor(of stored: Storage.RefreshToken, reader: any StoreReader) throws -> Storage.RefreshToken? {
        guard stored.rotatedAt != nil, stored.revokedAt == nil, let hash = stored.successorHash else { return nil }
        return try reader.refreshToken(hash: hash).flatMap { $0.familyID == stored.familyID ? $0 : nil }
    }

    /// Carries out a decision that refuses the token; reuse revokes its whole family first (RFC 9700 §4.14.2).
    package static func refusal(
        _ decision: RefreshTokenPolicy.Decision, tokenHash: [UInt8], writer: any StoreWriter, now: Date
    ) throws -> Outcome {
        guard let refusal = RefreshRefusal(decision) else {
            throw OAuthError.bug("a rotation decision taken for a refusal")
        }
        if refusal.revokedFamily { _ = try writer.revokeRefreshTokenFamily(tokenHash: tokenHash, now: now) }
        return .refused(refusal)
    }

    /// The refusal for a presentation whose compare-and-set lost: the token is read again (the winner has
    /// committed) and judged by the policy as a later presentation would be, without its successor: it can no
    /// longer rotate, nor be a retry (two presentations at once are no client's retry of a lost answer).
    package static func refusalAfterLostRotation(
        tokenHash: [UInt8], policy: RefreshTokenPolicy, writer: any StoreWriter, now: Date
    ) throws -> Outcome {
        guard let current = try writer.refreshToken(hash: tokenHash) else {
            return .refused(.unknownToken)
        }
        let decision = policy.decide(RefreshTokenState(current), now: now)
        return try refusal(decision, tokenHash: tokenHash, writer: writer, now: now)
    }
}
