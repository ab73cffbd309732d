import Configuration
import Crypto
import Foundation
import HTTP
import JSON
import Storage
import TestSupport
import Testing

@testable import Endpoints
@testable import Service

/// The hosted login's back end on `PasskeyHarness`: clients that opted in with `authorization_code`, the hosted
/// ceremony started as the hosted page starts it (`CeremonyChallenges`, the `/passkey/...` flows) and completed by
/// `HostedLogin`, and the code grant through the router.
struct HostedHarness {
    /// What the store keys a session cookie value or a code by, computed here and not by `HostedLogin`: the SHA-256
    /// of the 32 bytes the value spells (the refresh tokens' rule), nothing for anything else.
    static func storedHash(_ value: String) -> [UInt8] {
        Base64URL.decode(value).map(Digest.sha256) ?? []
    }

    let passkeys: PasskeyHarness
    let hosted: HostedLogin
    var context: ServerContext { passkeys.context }
    var clock: TestClock { passkeys.clock }

    /// `web` (authorization_code + refresh, https and loopback redirect URIs, organizations allowed), `web2` (another
    /// code client), `dpop` (requires DPoP), `app` (the native passkey grant).
    static let clients = """
        [{"client_id": "web", "grant_types": ["authorization_code", "refresh_token"], "organization_usage": "allow",
          "redirect_uris": ["https://app.example.com/callback", "http://127.0.0.1/cb"],
          "post_logout_redirect_uris": ["https://app.example.com/"]},
         {"client_id": "web2", "grant_types": ["authorization_code"], "redirect_uris": ["https://two.example.com/cb"]},
         {"client_id": "dpop", "grant_types": ["authorization_code", "refresh_token"], "require_dpop": true,
          "redirect_uris": ["https://app.example.com/callback"]},
         {"client_id": "app", "grant_types": ["urn:okta:params:oauth:grant-type:webauthn", "refresh_token"]}]
        """
    /// RFC 7636 Appendix B's verifier and its S256 challenge.
    static let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    static let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
    static let redirectURI = "https://app.example.com/callback"
    /// The issuer's origin: where the hosted page runs.
    static let pageOrigin = "https://auth.example.com"

    init(_ extra: [String: String] = [:], store: any Store = MemoryStore()) throws {
        passkeys = try PasskeyHarness(extra.merging(["PASSKEYD_CLIENTS": Self.clients]) { new, _ in new }, store: store)
        hosted = HostedLogin(context: passkeys.context)
    }

    /// A verified authorization request of `clientID`.
    func issuance(
        clientID: String = "web", redirectURI: String = redirectURI, scope: String = "openid offline_access",
        nonce: String? = "n-0S6_WzA2Mj", realm: String = "main"
    ) throws -> CodeIssuance {
        let client = try #require(context.configuration.client(id: clientID))
        let access = try context.tokens.authorization.authorize(
            client: client, audience: nil, scope: try #require(Scope(parsing: scope)))
        return CodeIssuance(
            client: client, redirectURI: redirectURI, codeChallenge: Self.challenge, access: access, realm: realm,
            nonce: nonce)
    }

    /// Signs `email` up on the hosted page with `passkey` (from the page's origin unless it says otherwise).
    func signUp(_ passkey: inout Passkey, email: String = "alice@example.com", _ issuance: CodeIssuance) async throws
        -> HostedLogin.Completion
    {
        let realm = try #require(context.configuration.defaultRealm)
        let challenge = try await CeremonyChallenges(context: context).signup(
            .init(client: issuance.client, realm: realm, userProfile: ["email": .string(email)]))
        if passkey.credential == nil, passkey.origin == "https://example.com" { passkey.origin = Self.pageOrigin }
        let response = try passkey.register(try #require(challenge["authn_params_public_key"]))
        return try await hosted.complete(
            issuance, authSession: try #require(challenge["auth_session"]?.stringValue), authnResponse: response)
    }

    /// Logs `passkey` in on the hosted page.
    func logIn(_ passkey: inout Passkey, _ issuance: CodeIssuance) async throws -> HostedLogin.Completion {
        let realm = try #require(context.configuration.defaultRealm)
        let challenge = try CeremonyChallenges(context: context).login(client: issuance.client, realm: realm)
        let response = try passkey.assert(try #require(challenge["authn_params_public_key"]))
        return try await hosted.complete(
            issuance, authSession: try #require(challenge["auth_session"]?.stringValue), authnResponse: response)
    }

    /// `POST /oauth/token` with `grant_type=authorization_code`.
    func redeem(
        _ code: String, clientID: String = "web", redirectURI: String = redirectURI, verifier: String = verifier,
        headers: HTTPHeaders = HTTPHeaders()
    ) async -> Response {
        await passkeys.client.post(
            "/oauth/token",
            form: [
                ("grant_type", "authorization_code"), ("client_id", clientID), ("code", code),
                ("redirect_uri", redirectURI), ("code_verifier", verifier),
            ], headers: headers)
    }

    /// Every security event so far, oldest first.
    func events() async throws -> [SecurityEvent] {
        try await context.store.read { try $0.securityEvents(after: 0, limit: 10_000) }
    }
}
