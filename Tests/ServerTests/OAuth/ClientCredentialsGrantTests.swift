import Commands
import Configuration
import Foundation
import HTTP
import JSON
import Storage
import Testing

@testable import Endpoints
@testable import Service

/// `grant_type=client_credentials` (RFC 6749 §4.4): a confidential client's own access token for a configured API
/// its client grant covers; never a user's API, never a refresh or ID token; every issuance audited.
@Suite("POST /oauth/token, client_credentials grant")
struct ClientCredentialsGrantTests {
    static let bank = "https://bank.example.com/"
    static let ledger = "https://ledger.example.com/"
    static let secret = "machine-Secret_0123456789abcdefghijklmnopqrst"

    static func harness(_ extra: [String: String] = [:]) throws -> PasskeyHarness {
        try PasskeyHarness(
            [
                "PASSKEYD_CLIENTS": """
                [{"client_id": "app", "grant_types": ["urn:okta:params:oauth:grant-type:webauthn", "refresh_token"]},
                 {"client_id": "batch", "grant_types": ["client_credentials"],
                  "client_secret_sha256": ["\(ClientsNewSecretCommand.hash(of: secret))"]},
                 {"client_id": "other", "grant_types": ["refresh_token"],
                  "client_secret_sha256": ["\(ClientsNewSecretCommand.hash(of: secret))"]}]
                """,
                "PASSKEYD_APIS": """
                [{"identifier": "\(bank)", "access_token_lifetime_seconds": 300,
                  "scopes": [{"value": "payments:read"}, {"value": "payments:write"}, {"value": "audit:read"}]},
                 {"identifier": "\(ledger)", "scopes": [{"value": "ledger:read"}]}]
                """,
                "PASSKEYD_CLIENT_GRANTS": """
                [{"client_id": "batch", "audience": "\(bank)", "scopes": ["payments:read", "audit:read"]},
                 {"client_id": "app", "audience": "\(ledger)", "scopes": ["ledger:read"]}]
                """,
            ].merging(extra) { _, new in new })
    }

    static func token(
        _ harness: PasskeyHarness, _ form: [(String, String)], clientID: String = "batch", secret: String? = secret
    ) async -> Response {
        var body = [("grant_type", "client_credentials"), ("client_id", clientID)] + form
        if let secret { body.append(("client_secret", secret)) }
        return await harness.client.post("/oauth/token", form: body)
    }

    static func expectError(_ response: Response, _ status: Int, _ error: String, _ comment: Comment? = nil) throws {
        #expect(response.status == status, comment)
        #expect(try response.jsonValue()["error"]?.stringValue == error, comment)
    }

    @Test("an access token for the API, with the grant's scopes, for the client itself; no refresh or ID token")
    func issues() async throws {
        let harness = try Self.harness()
        let response = await Self.token(harness, [("audience", Self.bank)])
        #expect(response.status == 200, "\(response.bodyText)")
        let body = try response.jsonValue()
        #expect(body["refresh_token"] == nil && body["id_token"] == nil)
        #expect(body["token_type"] == "Bearer")
        #expect(body["expires_in"] == .number("300"))
        #expect(body["scope"] == "payments:read audit:read")
        let token = try #require(body["access_token"]?.stringValue)
        let verified = try await WebAuthnGrantTests.verify(
            token, type: "at+jwt", audience: Self.bank, harness: harness)
        let claims = try WebAuthnGrantTests.claims(verified)
        #expect(claims["sub"] == "batch@clients")
        #expect(claims["client_id"] == "batch")
        #expect(claims["gty"] == "client-credentials")
        #expect(claims["aud"] == .string(Self.bank))
        #expect(claims["scope"] == "payments:read audit:read")
        for absent in ["auth_time", "amr", "sid", "cnf", "org_id"] { #expect(claims[absent] == nil, "\(absent)") }
        // Not a user's token: passkeyd's own endpoints refuse it (another audience).
        for path in ["/userinfo", "/me/passkeys", "/device-keys"] {
            let refused = await harness.client.get(path, headers: ["Authorization": "Bearer \(token)"])
            #expect(refused.status == 401, "\(path): \(refused.status) \(refused.bodyText)")
        }
        // Audited: the client, the audience and the scope; no user.
        let events = try await harness.context.store.read { try $0.securityEvents(after: 0, limit: 100) }
        let event = try #require(events.last { $0.kind == SecurityEvent.Kind.clientCredentials.rawValue })
        #expect(event.clientID == "batch" && event.userID == nil && event.outcome == "success")
        let detail = try JSONValue(parsing: try #require(event.detail))
        #expect(detail["audience"] == .string(Self.bank) && detail["scope"] == "payments:read audit:read")
        #expect(harness.counted("client_credentials"))
    }

    @Test("a requested scope must be the grant's: a narrower one is granted, another is refused by name")
    func scopes() async throws {
        let harness = try Self.harness()
        let narrow = await Self.token(harness, [("audience", Self.bank), ("scope", "audit:read")])
        #expect(try narrow.jsonValue()["scope"] == "audit:read")
        let wider = await Self.token(harness, [("audience", Self.bank), ("scope", "audit:read payments:write")])
        try Self.expectError(wider, 403, "access_denied")
        #expect(try wider.jsonValue()["error_description"] == "Client has not been granted scopes: payments:write")
        // The OIDC scopes are a user's.
        try Self.expectError(
            await Self.token(harness, [("audience", Self.bank), ("scope", "openid")]), 403, "access_denied")
        try Self.expectError(
            await Self.token(harness, [("audience", Self.bank), ("scope", "bad\u{7F}")]), 400, "invalid_scope")
    }

    @Test("a user's API, an API without a grant, an unknown audience and no audience are refused")
    func audiences() async throws {
        let harness = try Self.harness()
        let issuer = harness.context.configuration.issuer
        for audience in [
            issuer, harness.context.configuration.accountAudience, harness.context.configuration.deviceKeys.audience,
        ] {
            try Self.expectError(
                await Self.token(harness, [("audience", audience)]), 403, "access_denied", "\(audience)")
        }
        try Self.expectError(await Self.token(harness, [("audience", Self.ledger)]), 403, "access_denied")
        try Self.expectError(
            await Self.token(harness, [("audience", "https://nowhere.example/")]), 403, "access_denied")
        // No audience: the default is the issuer's, a user's API.
        try Self.expectError(await Self.token(harness, []), 400, "invalid_request")
        // With a configured API as the default audience, none needs naming.
        let defaulted = try Self.harness(["PASSKEYD_DEFAULT_AUDIENCE": Self.bank])
        #expect(await Self.token(defaulted, []).status == 200)
    }

    @Test("only an authenticated client with the grant: a public client cannot be configured with it")
    func clients() async throws {
        let harness = try Self.harness()
        // The secret is required (ClientResolution) and checked before anything is issued.
        let unauthenticated = await Self.token(harness, [("audience", Self.bank)], secret: nil)
        try Self.expectError(unauthenticated, 401, "invalid_client")
        try Self.expectError(
            await Self.token(harness, [("audience", Self.bank)], secret: "wrong"), 401, "invalid_client")
        // A confidential client without the grant type.
        try Self.expectError(
            await Self.token(harness, [("audience", Self.bank)], clientID: "other"), 403, "unauthorized_client")
        // RFC 6749 §4.4: confidential clients only, refused at load.
        #expect(throws: ConfigurationError.self) {
            try PasskeyHarness([
                "PASSKEYD_CLIENTS": #"[{"client_id": "public-batch", "grant_types": ["client_credentials"]}]"#
            ])
        }
        let events = try await harness.context.store.read { try $0.securityEvents(after: 0, limit: 100) }
        #expect(!events.contains { $0.kind == SecurityEvent.Kind.clientCredentials.rawValue })
    }

    @Test("a DPoP proof binds the machine's token to its key; discovery lists the grant")
    func dpopAndDiscovery() async throws {
        let harness = try Self.harness()
        let discovery = try await harness.client.get("/.well-known/openid-configuration").jsonValue()
        #expect(discovery["grant_types_supported"]?.arrayValue?.contains("client_credentials") == true)
        let key = try DPoPProver()
        let proof = try key.proof("POST", "https://auth.example.com/oauth/token", now: harness.clock.now())
        let response = await harness.client.post(
            "/oauth/token",
            form: [
                ("grant_type", "client_credentials"), ("client_id", "batch"), ("client_secret", Self.secret),
                ("audience", Self.bank),
            ], headers: ["DPoP": proof])
        #expect(response.status == 200, "\(response.bodyText)")
        #expect(try response.jsonValue()["token_type"] == "DPoP")
        let token = try #require(try response.jsonValue()["access_token"]?.stringValue)
        let claims = try WebAuthnGrantTests.claims(
            try await WebAuthnGrantTests.verify(token, type: "at+jwt", audience: Self.bank, harness: harness))
        #expect(claims["cnf"]?["jkt"]?.stringValue == key.thumbprint)
    }
}
