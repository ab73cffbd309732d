import Foundation
import HTTP
import JSON
import TestSupport
import Testing
import Tokens

@testable import Service

/// The steps of the My Account API tests (`/me/v1/authentication-methods…`): a login for the account API with
/// Auth0's scopes, and tokens minted with other scopes, login times or a DPoP key.
extension PasskeyHarness {
    /// Auth0's My Account API scopes for authentication methods, all four.
    static let authenticationMethodScopes = [
        "create:me:authentication_methods", "read:me:authentication_methods", "update:me:authentication_methods",
        "delete:me:authentication_methods",
    ]

    /// The collection path, as Auth0.swift builds it (`<domain>/me/v1` + `authentication-methods`).
    static let methodsPath = "/me/v1/authentication-methods"

    /// `Authorization: Bearer <token>`.
    static func bearer(_ token: String) -> HTTPHeaders { ["Authorization": "Bearer \(token)"] }

    /// The path of method `id` as the SDKs send it: Auth0.Android's `addPathSegment` and Foundation's
    /// `appending(path:)` percent-encode `|`.
    static func methodPath(_ id: String) -> String {
        methodsPath + "/" + id.replacingOccurrences(of: "|", with: "%7C")
    }

    /// Signs `authenticator` up for `email` asking for the account API and `scope` (a real webauthn grant); returns
    /// the access token, the user id and the granted scope.
    func signUpForMyAccount(
        _ authenticator: inout Passkey, email: String = "alice@example.com",
        scope: [String] = ["openid", "offline_access"] + authenticationMethodScopes
    ) async throws -> (token: String, userID: String, scope: String) {
        let challenge = try await registerChallenge(email: email).jsonValue()
        let options = try #require(challenge["authn_params_public_key"])
        let session = try #require(challenge["auth_session"]?.stringValue)
        let response = await token(
            session: session, response: try authenticator.register(options), scope: scope.joined(separator: " "),
            audience: TestConfiguration.accountAudience)
        try #require(response.status == 200, "signup: \(response.status) \(response.bodyText)")
        let body = try response.jsonValue()
        let token = try #require(body["access_token"]?.stringValue)
        let userID = try #require(try SRPHarness.claims(token)["sub"]?.stringValue)
        return (token, userID, try #require(body["scope"]?.stringValue))
    }

    /// An access token for the account API as a user-verified passkey login `loginAge` seconds ago would carry it,
    /// with `scope`, bound to `prover`'s key when given.
    func myAccountToken(
        userID: String, scope: [String], loginAge: TimeInterval = 0, boundTo prover: DPoPProver? = nil
    ) async throws -> String {
        let now = clock.now()
        let login = now.addingTimeInterval(-loginAge)
        let claims = AccessTokenClaims(
            issuer: context.configuration.issuer, subject: userID,
            audience: [TestConfiguration.accountAudience, TestConfiguration.issuer], clientID: "app", scope: scope,
            issuedAt: login, expiresAt: now.addingTimeInterval(3600), jwtID: try TokenService.randomIdentifier(),
            authTime: login, authenticationMethods: ["hwk", "user"], confirmationThumbprint: prover?.thumbprint)
        return try await context.tokens.currentRing().signer.sign(claims)
    }

    /// The headers of a request `method` `target` with the DPoP-bound `token` and a fresh proof by `prover`.
    func dpopHeaders(_ method: String, _ target: String, token: String, prover: DPoPProver) throws -> HTTPHeaders {
        [
            "Authorization": "DPoP \(token)",
            "DPoP": try prover.proof(
                method, "https://auth.example.com\(target)", now: clock.now(), accessToken: token),
        ]
    }
}
