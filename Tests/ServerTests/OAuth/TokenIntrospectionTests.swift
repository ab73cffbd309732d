import Commands
import Configuration
import Foundation
import HTTP
import JSON
import Testing

@testable import Endpoints
@testable import Service

/// `POST /oauth/introspect` (RFC 7662): an API's resource servers (its `introspection_clients`) and a token's own
/// client learn whether an access token still stands, revocation included; everyone else, and every other token,
/// gets `{"active": false}`; a public client cannot ask.
@Suite("POST /oauth/introspect")
struct TokenIntrospectionTests {
    static let bank = "https://bank.example.com/"
    static let secret = "resource-Server-Secret_0123456789abcdefghij"

    static func harness() throws -> PasskeyHarness {
        let hash = ClientsNewSecretCommand.hash(of: secret)
        return try PasskeyHarness([
            "PASSKEYD_CLIENTS": """
            [{"client_id": "app", "grant_types": ["urn:okta:params:oauth:grant-type:webauthn", "refresh_token"]},
             {"client_id": "rs", "grant_types": ["client_credentials"], "client_secret_sha256": ["\(hash)"]},
             {"client_id": "batch", "grant_types": ["client_credentials"], "client_secret_sha256": ["\(hash)"]}]
            """,
            "PASSKEYD_APIS": """
            [{"identifier": "\(bank)", "scopes": [{"value": "payments:read"}], "introspection_clients": ["rs"]}]
            """,
            "PASSKEYD_CLIENT_GRANTS": """
            [{"client_id": "app", "audience": "\(bank)", "scopes": ["payments:read"]},
             {"client_id": "batch", "audience": "\(bank)", "scopes": ["payments:read"]}]
            """,
        ])
    }

    static func introspect(_ harness: PasskeyHarness, _ token: String, as clientID: String = "rs") async -> Response {
        await harness.client.post(
            "/oauth/introspect", form: [("client_id", clientID), ("client_secret", secret), ("token", token)])
    }

    static func active(_ response: Response) throws -> Bool {
        #expect(response.status == 200, "\(response.bodyText)")
        #expect(response.headers["Cache-Control"] == "no-store")
        let active = try response.jsonValue()["active"]?.boolValue
        #expect(active != nil, "no active member: \(response.bodyText)")
        return active == true
    }

    @Test("an API's resource server sees a user's token for it, until its session is revoked")
    func userToken() async throws {
        let harness = try Self.harness()
        var passkey = Passkey()
        _ = try await harness.signUp(&passkey)
        let login = try await harness.logIn(&passkey, audience: Self.bank).jsonValue()
        let access = try #require(login["access_token"]?.stringValue)
        let answer = await Self.introspect(harness, access)
        #expect(try Self.active(answer))
        let body = try answer.jsonValue()
        #expect(body["client_id"] == "app" && body["token_type"] == "Bearer")
        // The API, and the issuer beside it for /userinfo (the login asked for openid).
        #expect(body["aud"] == [.string(Self.bank), "https://auth.example.com/"])
        #expect(body["iss"] == "https://auth.example.com/" && body["scope"]?.stringValue?.contains("openid") == true)
        #expect(body["sub"]?.stringValue?.isEmpty == false && body["exp"] != nil && body["jti"] != nil)
        // The app revokes its login (RFC 7009): the resource server learns it before the token expires.
        let refresh = try #require(login["refresh_token"]?.stringValue)
        let revoked = await harness.client.post("/oauth/revoke", form: [("client_id", "app"), ("token", refresh)])
        #expect(revoked.status == 200)
        #expect(try !Self.active(await Self.introspect(harness, access)))
    }

    @Test("another API's token, a token that does not verify, and an expired one are inactive alike")
    func inactive() async throws {
        let harness = try Self.harness()
        var passkey = Passkey()
        _ = try await harness.signUp(&passkey)
        // The issuer's audience (no API of rs's).
        let own = try await harness.logIn(&passkey).jsonValue()
        let issuerToken = try #require(own["access_token"]?.stringValue)
        #expect(try !Self.active(await Self.introspect(harness, issuerToken)))
        #expect(try !Self.active(await Self.introspect(harness, "not-a-token")))
        #expect(try !Self.active(await Self.introspect(harness, String(issuerToken.dropLast(3)) + "AAA")))
        let bankToken = try #require(
            try await harness.logIn(&passkey, audience: Self.bank).jsonValue()["access_token"]?.stringValue)
        #expect(try Self.active(await Self.introspect(harness, bankToken)))
        harness.clock.advance(86_400)
        #expect(try !Self.active(await Self.introspect(harness, bankToken)))
        #expect(try await Self.introspect(harness, bankToken).jsonValue() == ["active": false])
    }

    @Test("a machine's token: its client and the API's resource server see it; a public client cannot ask")
    func machineTokenAndCallers() async throws {
        let harness = try Self.harness()
        let issued = await harness.client.post(
            "/oauth/token",
            form: [
                ("grant_type", "client_credentials"), ("client_id", "batch"), ("client_secret", Self.secret),
                ("audience", Self.bank),
            ])
        let token = try #require(try issued.jsonValue()["access_token"]?.stringValue)
        for caller in ["rs", "batch"] {
            let answer = await Self.introspect(harness, token, as: caller)
            #expect(try Self.active(answer), "\(caller)")
            #expect(try answer.jsonValue()["sub"] == "batch@clients")
        }
        // A public client has no secret to prove who asks (RFC 7662 §2.1, §4: no token scanning).
        let publicCaller = await harness.client.post(
            "/oauth/introspect", form: [("client_id", "app"), ("token", token)])
        #expect(publicCaller.status == 401)
        #expect(try publicCaller.jsonValue()["error"] == "invalid_client")
        let unauthenticated = await harness.client.post(
            "/oauth/introspect", form: [("client_id", "rs"), ("token", token)])
        #expect(unauthenticated.status == 401)
        let missing = await harness.client.post(
            "/oauth/introspect", form: [("client_id", "rs"), ("client_secret", Self.secret)])
        #expect(missing.status == 400)
    }

    @Test("introspection_clients must be confidential clients; discovery names the endpoint")
    func configurationAndDiscovery() async throws {
        #expect(throws: ConfigurationError.self) {
            try PasskeyHarness([
                "PASSKEYD_APIS": #"[{"identifier": "https://x.example.com/", "introspection_clients": ["app"]}]"#
            ])
        }
        let discovery = try await Self.harness().client.get("/.well-known/openid-configuration").jsonValue()
        #expect(discovery["introspection_endpoint"] == "https://auth.example.com/oauth/introspect")
        #expect(
            discovery["introspection_endpoint_auth_methods_supported"]
                == ["client_secret_basic", "client_secret_post", "private_key_jwt"])
    }
}
