import Foundation
import HTTP
import Tokens

extension TokenService {
    /// Authenticates a request by its Bearer access token (RFC 6750 §2.1): an ES256 `at+jwt` of this issuer,
    /// signed by a published key, unexpired, whose `aud` contains `audience` (RFC 9068 §4: the resource server
    /// checks that the token was issued for it), by default the issuer's own API (`defaultAudience`).
    ///
    /// Used by `/userinfo` (default audience) and the device-key endpoints (`deviceKeyAudience`).
    /// - Throws: an error that `ErrorMapping` turns into 401 `invalid_token` with `WWW-Authenticate`.
    public func authenticate(_ request: Request, audience: String? = nil) async throws -> AuthenticatedSubject {
        guard let header = request.headers["Authorization"] else {
            // RFC 6750 §3.1: without any authentication information, no error code.
            throw OAuthError(.invalidToken, "Missing access token.", logCode: BearerChallenge.missingToken)
        }
        // RFC 6750 §2.1: credentials = "Bearer" 1*SP b64token; the scheme is case-insensitive (RFC 9110 §11.1).
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw OAuthError(.invalidToken, "The access token is invalid.", logCode: "token_not_bearer")
        }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        let ring = try await currentRing()
        let verified = try ring.verifier.verify(
            token,
            expecting: JWTExpectations(
                type: AccessTokenClaims.type, issuer: configuration.issuer, audience: audience ?? defaultAudience,
                now: clock.now()))
        let claims = try AccessTokenClaims(verified: verified)
        return AuthenticatedSubject(
            sub: claims.subject, clientID: claims.clientID, scope: claims.scope, authTime: claims.authTime,
            tokenID: claims.jwtID, authenticationMethods: claims.authenticationMethods, issuedAt: claims.issuedAt,
            audience: claims.audience)
    }
}
