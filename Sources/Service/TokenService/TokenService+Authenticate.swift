import Foundation
import JSON
import Tokens

extension TokenService {
    /// Authenticates a request by its access token: an ES256 `at+jwt` of this issuer, signed by a published key,
    /// unexpired, whose `aud` contains `audience` (RFC 9068 §4: the resource server checks that the token was
    /// issued for it), by default the issuer's own API (`defaultAudience`), presented either
    /// - as `Authorization: Bearer <token>` (RFC 6750 §2.1) when the token is not DPoP-bound, or
    /// - as `Authorization: DPoP <token>` with a `DPoP` proof by the key the token is bound to, carrying `ath`
    ///   (RFC 9449 §7).
    ///
    /// Used by `/userinfo` (default audience), account management (`accountAudience`) and the device-key endpoints
    /// (`deviceKeyAudience`): passkeyd's own endpoints, which also refuse a token whose session has ended
    /// (`checkSession`) — no waiting for its expiry after a revocation, a recovery or an account deletion.
    /// - Throws: an error that `ErrorMapping` turns into 401 with `WWW-Authenticate` (`Bearer`, or `DPoP` for a DPoP
    ///   request, RFC 9449 §7.1).
    /// `checkingSession: false` leaves `checkSession` to the caller (the recovery token's enrolment, which first
    /// says when the token is already spent).
    public func authenticate(
        _ credentials: PresentedCredentials, audience: String? = nil, checkingSession: Bool = true
    ) async throws -> AuthenticatedSubject {
        guard let header = credentials.authorization else {
            // RFC 6750 §3.1: without any authentication information, no error code.
            throw OAuthError.missingAccessToken
        }
        // RFC 6750 §2.1 / RFC 9449 §7.1: credentials = scheme 1*SP token68; schemes are case-insensitive (RFC 9110
        // §11.1).
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        let scheme = parts.first?.lowercased()
        guard parts.count == 2, scheme == "bearer" || scheme == "dpop" else {
            throw OAuthError(.invalidToken, "The access token is invalid.", logCode: "token_not_bearer")
        }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        guard scheme == "dpop" else {
            let subject = try await bearerSubject(token, audience: audience)
            if checkingSession { try await checkSession(subject) }
            return subject
        }
        do {
            let subject = try await dpopSubject(token, credentials: credentials, audience: audience)
            if checkingSession { try await checkSession(subject) }
            return subject
        } catch {
            // RFC 9449 §7.1: a DPoP request is answered with a DPoP challenge.
            var mapped = OAuthError.mapping(error)
            mapped.resourceScheme = .dpop
            throw mapped
        }
    }

    /// A Bearer token: refused when it is DPoP-bound (RFC 9449 §7.2: a bound token is not a bearer token) or its
    /// client requires DPoP.
    private func bearerSubject(_ token: String, audience: String?) async throws -> AuthenticatedSubject {
        let claims = try await verifiedClaims(token, audience: audience)
        guard claims.confirmationThumbprint == nil else {
            throw OAuthError(.invalidToken, "The access token is invalid.", logCode: "token_dpop_bound_as_bearer")
        }
        guard configuration.client(id: claims.clientID)?.requireDPoP != true else {
            throw OAuthError(.invalidToken, "The access token is invalid.", logCode: "token_bearer_for_dpop_client")
        }
        return Self.subject(claims, dpopThumbprint: nil)
    }

    /// A DPoP token: bound (`cnf.jkt`), with one valid proof by that key whose `ath` is the token's hash.
    private func dpopSubject(_ token: String, credentials: PresentedCredentials, audience: String?) async throws
        -> AuthenticatedSubject
    {
        let claims = try await verifiedClaims(token, audience: audience)
        guard let bound = claims.confirmationThumbprint else {
            throw OAuthError(.invalidToken, "The access token is invalid.", logCode: "token_not_dpop_bound")
        }
        guard try await checkDPoP(credentials, accessToken: token, boundThumbprint: bound) != nil else {
            throw OAuthError.invalidDPoPProof("dpop_proof_missing", reason: "DPoP scheme without a DPoP header")
        }
        return Self.subject(claims, dpopThumbprint: bound)
    }

    private func verifiedClaims(_ token: String, audience: String?) async throws -> AccessTokenClaims {
        try await verifiedClaims(
            token,
            expecting: JWTExpectations(
                type: AccessTokenClaims.type, issuer: configuration.issuer, audience: audience ?? defaultAudience,
                now: clock.now()))
    }

    /// The claims of `token` when it is an unexpired access token this issuer minted, for any audience: what RFC 7009
    /// revocation asks (the issuer revoking its own token), never what a resource decides on. Nil for anything else
    /// (not a JWT, another issuer's, expired, a bad signature); a failure to read the keys is thrown.
    package func mintedAccessTokenClaims(_ token: String) async throws -> AccessTokenClaims? {
        let expectations = JWTExpectations.anyAudience(
            type: AccessTokenClaims.type, issuer: configuration.issuer, now: clock.now())
        do {
            return try await verifiedClaims(token, expecting: expectations)
        } catch is TokenError {
            return nil
        }
    }

    private func verifiedClaims(_ token: String, expecting expectations: JWTExpectations) async throws
        -> AccessTokenClaims
    {
        let ring = try await currentRing()
        let verified: VerifiedJWT
        // A `Result` rather than do/catch: a typed catch that awaits crashes Swift 6.3's ownership verifier.
        switch Result(catching: { () throws(TokenError) in try ring.verifier.verify(token, expecting: expectations) }) {
        case .success(let value):
            verified = value
        case .failure(let error):
            // A key another node signs with that this node has not loaded yet (`keys rotate --now`, or the first
            // key of an algorithm on an upgraded cluster): the keys are read again, at most once per
            // `onDemandReloadInterval` whatever the tokens presented, and the token judged once more.
            guard error.code == .unknownKey, let reloaded = try await ringReloadedOnDemand() else { throw error }
            verified = try reloaded.verifier.verify(token, expecting: expectations)
        }
        return try AccessTokenClaims(verified: verified)
    }

    private static func subject(_ claims: AccessTokenClaims, dpopThumbprint: String?) -> AuthenticatedSubject {
        AuthenticatedSubject(
            sub: claims.subject, clientID: claims.clientID, scope: claims.scope, authTime: claims.authTime,
            tokenID: claims.jwtID, authenticationMethods: claims.authenticationMethods, issuedAt: claims.issuedAt,
            audience: claims.audience, dpopThumbprint: dpopThumbprint, sessionID: claims.sessionID)
    }

    /// RFC 6750 §3.1 `invalid_token` ("revoked") for a valid token whose session has ended, read in one statement
    /// (`StoreReader.sessionStatus`): its user deleted, its family (`sid`) revoked, or every session of its user
    /// revoked after it was minted. `iat` is whole seconds (RFC 7519 NumericDate): a token minted in the very second
    /// of a user-wide revocation, before it, stays valid until it expires; one minted earlier is refused.
    package func checkSession(_ subject: AuthenticatedSubject) async throws {
        if let reason = try await revocation(
            userID: subject.sub, familyID: subject.sessionID, issuedAt: subject.issuedAt)
        {
            throw OAuthError(
                .invalidToken, "The access token has been revoked.", logCode: "token_revoked", reason: reason)
        }
    }

    /// Why a user's access token minted at `issuedAt` in the session family `familyID` no longer stands (`checkSession`
    /// says how), or `nil` while it does: the one rule behind passkeyd's own endpoints and token introspection.
    package func revocation(userID: String, familyID: String?, issuedAt: Date) async throws -> String? {
        let status = try await store.read { try $0.sessionStatus(userID: userID, familyID: familyID) }
        return if !status.userExists {
            "user deleted"
        } else if status.familyRevoked {
            "session family revoked"
        } else if let revokedAt = status.sessionsRevokedAt,
            issuedAt.timeIntervalSince1970 < revokedAt.timeIntervalSince1970.rounded(.down)
        {
            "all sessions of the user revoked after the token was minted"
        } else { nil }
    }
}
