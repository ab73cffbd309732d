import Commands
import Configuration
import Crypto
import Foundation
import HTTP
import JSON
import Testing
import Tokens

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
             {"client_id": "batch", "grant_types": ["client_credentials"], "client_secret_sha256": ["\(hash)"],
              "introspection_signed_response_alg": "ES256"}]
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

    static func introspect(
        _ harness: PasskeyHarness, _ token: String, as clientID: String = "rs", accept: String? = nil
    ) async -> Response {
        await harness.client.post(
            "/oauth/introspect", form: [("client_id", clientID), ("client_secret", secret), ("token", token)],
            headers: accept.map { HTTPHeaders([("Accept", $0)]) } ?? HTTPHeaders())
    }

    /// A signed-up user's login for the bank API: its token response and access token.
    static func bankLogin(_ harness: PasskeyHarness) async throws -> (response: JSONValue, access: String) {
        var passkey = Passkey()
        _ = try await harness.signUp(&passkey)
        let login = try await harness.logIn(&passkey, audience: bank).jsonValue()
        return (login, try #require(login["access_token"]?.stringValue))
    }

    /// A machine token of `clientID` (client_credentials) for the bank API.
    static func machineToken(_ harness: PasskeyHarness, _ clientID: String = "batch") async throws -> String {
        let issued = await harness.client.post(
            "/oauth/token",
            form: [
                ("grant_type", "client_credentials"), ("client_id", clientID), ("client_secret", secret),
                ("audience", bank),
            ])
        return try #require(try issued.jsonValue()["access_token"]?.stringValue, "\(issued.bodyText)")
    }

    /// An RFC 9701 answer checked as a resource server checks it: the media type, `typ`, a signature by the key the
    /// JWKS publishes under its `kid` with the `alg` it names, `iss`, `aud` and `iat`; its `token_introspection`.
    static func signedAnswer(
        _ response: Response, harness: PasskeyHarness, caller: String = "rs", algorithm: String = "RS256"
    ) async throws -> JSONValue {
        #expect(response.status == 200, "\(response.bodyText)")
        #expect(response.headers["Content-Type"] == "application/token-introspection+jwt")
        #expect(response.headers["Cache-Control"] == "no-store")
        let parts = response.bodyText.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3, "not a compact JWS: \(response.bodyText)")
        let header = try JSONValue(parsing: try #require(Base64URL.decode(parts[0])))
        let payload = try JSONValue(parsing: try #require(Base64URL.decode(parts[1])))
        let signature = try #require(Base64URL.decode(parts[2]))
        #expect(header["typ"] == "token-introspection+jwt" && header["alg"] == .string(algorithm))
        let jwks = try await harness.client.get("/.well-known/jwks.json").jsonValue()
        let jwk = try #require(jwks["keys"]?.arrayValue?.first { $0["kid"] == header["kid"] }, "kid not published")
        let input = Array("\(parts[0]).\(parts[1])".utf8)
        func bytes(_ name: String) throws -> [UInt8] {
            try #require(jwk[name]?.stringValue.flatMap { Base64URL.decode($0) })
        }
        let verifies: Bool
        switch algorithm {
        case "ES256":
            let key = try ECPublicKey(curve: .p256, x: try bytes("x"), y: try bytes("y"))
            let der = try ECDSASignature.derRepresentation(fromRaw: signature, curve: .p256)
            verifies = key.isValidSignature(der, for: input, hash: .sha256)
        default:
            let key = try RSAPublicKey(modulus: try bytes("n"), exponent: try bytes("e"))
            verifies = key.isValidSignature(signature, for: input, hash: .sha256, padding: .pkcs1v15)
        }
        #expect(verifies, "the signature does not verify with the published key")
        #expect(payload["iss"] == "https://auth.example.com/" && payload["aud"] == .string(caller))
        #expect(payload["iat"] == .number(String(Int64(harness.clock.now().timeIntervalSince1970))))
        // RFC 9701 §5: no top-level sub or exp, so the answer cannot pass as an access token.
        #expect(payload["sub"] == nil && payload["exp"] == nil)
        return try #require(payload["token_introspection"])
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
        let (login, access) = try await Self.bankLogin(harness)
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
        let token = try await Self.machineToken(harness)
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

    @Test("Accept: application/token-introspection+jwt gets the same answer signed (RFC 9701), active or not")
    func signedAnswers() async throws {
        let harness = try Self.harness()
        let access = try await Self.bankLogin(harness).access
        let plain = try await Self.introspect(harness, access).jsonValue()
        let jwt = "application/token-introspection+jwt"
        let signed = try await Self.signedAnswer(
            await Self.introspect(harness, access, accept: jwt), harness: harness)
        #expect(signed == plain && signed["active"] == true)
        // Inactive: `{"active": false}` and nothing more, signed all the same.
        let inactive = try await Self.signedAnswer(
            await Self.introspect(harness, "not-a-token", accept: "\(jwt);q=0.9, application/json;q=0.5"),
            harness: harness)
        #expect(inactive == ["active": false])
        // The caller's introspection_signed_response_alg: batch asks for ES256, and is the audience.
        let machineToken = try await Self.machineToken(harness)
        let own = try await Self.signedAnswer(
            await Self.introspect(harness, machineToken, as: "batch", accept: jwt), harness: harness, caller: "batch",
            algorithm: "ES256")
        #expect(own["active"] == true && own["sub"] == "batch@clients")
    }

    @Test(
        "JSON stays the answer unless Accept names the JWT type at least as high as JSON",
        arguments: [
            "*/*", "application/json", "application/*", "application/json, application/token-introspection+jwt;q=0.5",
            "application/token-introspection+jwt;q=0", "text/html",
        ])
    func negotiation(accept: String) async throws {
        let harness = try Self.harness()
        let answer = await Self.introspect(harness, "not-a-token", accept: accept)
        #expect(answer.headers["Content-Type"]?.hasPrefix("application/json") == true, "\(accept)")
        #expect(try answer.jsonValue() == ["active": false], "\(accept)")
    }

    @Test("errors stay JSON when a signed answer is asked for; the signing algorithm is checked at start")
    func signedErrorsAndConfiguration() async throws {
        let harness = try Self.harness()
        let refused = await harness.client.post(
            "/oauth/introspect", form: [("client_id", "rs"), ("token", "x")],
            headers: HTTPHeaders([("Accept", "application/token-introspection+jwt")]))
        #expect(refused.status == 401 && refused.headers["Content-Type"]?.hasPrefix("application/json") == true)
        #expect(try refused.jsonValue()["error"] == "invalid_client")
        for value in ["none", "HS256", "PS256"] {
            #expect(throws: ConfigurationError.self, "\(value)") {
                try PasskeyHarness([
                    "PASSKEYD_CLIENTS": #"[{"client_id": "rs", "introspection_signed_response_alg": "\#(value)"}]"#
                ])
            }
        }
        // RFC 9701 §6: encryption is not supported, so its settings are refused rather than ignored.
        #expect(throws: ConfigurationError.self) {
            try PasskeyHarness([
                "PASSKEYD_CLIENTS": #"[{"client_id": "rs", "introspection_encrypted_response_alg": "RSA-OAEP-256"}]"#
            ])
        }
        let discovery = try await harness.client.get("/.well-known/openid-configuration").jsonValue()
        #expect(discovery["introspection_signing_alg_values_supported"] == ["RS256", "ES256"])
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
