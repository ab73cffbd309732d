import Crypto
import Foundation
import JSON
import Storage
import Tokens

/// Minting: refresh tokens, and the token response of a grant (access, ID and refresh tokens).
extension TokenService {
    /// A new refresh token and its record: 32 random bytes, only the SHA-256 stored (RFC 9700 §4.14.2), expiring
    /// at `expiry` (from `refreshPolicy`: `firstExpiry` for a login, the `rotate` decision for a successor).
    /// `authenticationMethods` is the `amr` of the family's login, which every token minted from the family carries.
    package func newRefreshToken(
        familyID: String, clientID: String, userID: String, scope: String, audience: String, authTime: Date,
        authenticationMethods: [String]?, now: Date, expiry: RefreshTokenExpiry, dpopThumbprint: String? = nil,
        organizationID: String? = nil
    ) throws -> (value: String, record: Storage.RefreshToken) {
        let token = try Tokens.RefreshToken(randomBytes: SecureRandom.bytes(count: Tokens.RefreshToken.byteCount))
        let record = Storage.RefreshToken(
            tokenHash: token.hash, familyID: familyID, clientID: clientID, userID: userID, scope: scope,
            authTime: authTime, createdAt: now, absoluteExpiresAt: expiry.absolute, idleExpiresAt: expiry.idle,
            dpopThumbprint: dpopThumbprint, audience: audience, authenticationMethods: authenticationMethods,
            organizationID: organizationID)
        return (token.value, record)
    }

    /// A random identifier (`jti`, device key and challenge ids): 16 random bytes, base64url.
    package static func randomIdentifier() throws -> String {
        Base64URL.encode(try SecureRandom.bytes(count: 16))
    }

    /// The signers of the active keys. Loaded on their own by a caller that mints inside a store write
    /// (`tokenResponse(for:refreshToken:now:signers:)`), so that the key load, which may read the store, happens
    /// before the write.
    package func currentSigners() async throws -> TokenSigners {
        try await currentRing().signers
    }

    /// The token response body (RFC 6749 §5.1): `access_token`, `id_token` when `openid` was granted,
    /// `refresh_token` when one was issued, `scope`, `expires_in`, `token_type`, then `extra` (a grant's own
    /// members, e.g. the SRP grant's `M2`). `jwtID` is the access token's `jti` when the caller must know it (a
    /// recovery token's single use spends it); otherwise a random one.
    package func tokenResponse(
        for grant: Grant, refreshToken: String?, now: Date, extra: [JSONMember] = [], jwtID: String? = nil
    ) async throws -> TokenResponse {
        try tokenResponse(
            for: grant, refreshToken: refreshToken, now: now, signers: try await currentSigners(), extra: extra,
            jwtID: jwtID)
    }

    /// The token response signed by `signers`. Synchronous, so that a store write can mint inside its transaction
    /// and a minting failure rolls the write back (the refresh grant's rotation).
    package func tokenResponse(
        for grant: Grant, refreshToken: String?, now: Date, signers: TokenSigners, extra: [JSONMember] = [],
        jwtID: String? = nil
    ) throws -> TokenResponse {
        let api = grant.access.api
        let scope = grant.access.scope
        // RFC 9068 §3: aud is the API the grant is for; with `openid` the issuer is added so /userinfo accepts the
        // token too (as Auth0 adds its /userinfo). The issuer's audience buys /userinfo and nothing else: account
        // management needs the account API's own audience, which only a login for it carries.
        var audience = [api.identifier]
        if scope.contains("openid"), !audience.contains(defaultAudience) {
            audience.append(defaultAudience)
        }
        let access = AccessTokenClaims(
            issuer: configuration.issuer, subject: grant.user.id, audience: audience, clientID: grant.clientID,
            scope: scope.tokens, issuedAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(api.accessTokenLifetime)),
            jwtID: try jwtID ?? (grant.isLogin ? grant.sessionID : nil) ?? Self.randomIdentifier(),
            authTime: grant.authTime,
            authenticationMethods: grant.authenticationMethods, confirmationThumbprint: grant.dpopThumbprint,
            sessionID: grant.sessionID, organizationID: grant.organizationID,
            organizationName: organizationNameClaim(grant))
        // Access tokens follow their API's algorithm.
        let accessToken = try signers.signer(api.signingAlgorithm).sign(access)
        var members: [JSONMember] = [JSONMember(key: "access_token", value: .string(accessToken))]
        if scope.contains("openid") {
            let id = idTokenClaims(for: grant, now: now)
            // OIDC Core §15.1 / OIDC Registration §2: RS256 unless the client set id_token_signed_response_alg.
            let algorithm = configuration.client(id: grant.clientID)?.idTokenSigningAlgorithm ?? .rs256
            members.append(JSONMember(key: "id_token", value: .string(try signers.signer(algorithm).sign(id))))
        }
        if let refreshToken {
            members.append(JSONMember(key: "refresh_token", value: .string(refreshToken)))
        }
        members.append(JSONMember(key: "scope", value: .string(scope.text)))
        members.append(JSONMember(key: "expires_in", value: .number(String(api.accessTokenLifetime))))
        // RFC 9449 §5: a bound access token is of type DPoP.
        members.append(JSONMember(key: "token_type", value: .string(grant.dpopThumbprint == nil ? "Bearer" : "DPoP")))
        members += extra
        return TokenResponse(members: members)
    }

    /// The ID token of a grant (OIDC Core §2), with the user claims its scope releases (`UserClaims`).
    package func idTokenClaims(for grant: Grant, now: Date) -> IDTokenClaims {
        let released = UserClaims(
            user: grant.user, scope: grant.access.scope.tokens, metadataClaim: configuration.tokens.userMetadataClaim)
        var id = IDTokenClaims(
            issuer: configuration.issuer, subject: grant.user.id, audience: grant.clientID, issuedAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(configuration.tokens.idTokenLifetime)),
            authTime: grant.authTime, authenticationMethods: grant.authenticationMethods, email: released.email,
            // The address was not verified by passkeyd (no mail loop): say so.
            emailVerified: released.email.map { _ in false }, phoneNumber: released.phoneNumber,
            phoneNumberVerified: released.phoneNumber.map { _ in false }, name: released.name)
        id.organizationID = grant.organizationID
        id.sessionID = grant.sessionID
        id.nonce = grant.nonce
        id.organizationName = organizationNameClaim(grant)
        id.givenName = released.givenName
        id.familyName = released.familyName
        id.nickname = released.nickname
        id.picture = released.picture
        if let metadata = released.userMetadata {
            id.namespacedClaims = [(metadata.claim, Array(metadata.json.utf8))]
        }
        return id
    }
}
