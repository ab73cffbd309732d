import Commands
import Configuration
import Crypto
import Foundation
import HTTP
import JSON
import Testing

@testable import Endpoints
@testable import Service

/// Confidential clients (RFC 6749 §2.3.1): a client configured with `client_secret_sha256` authenticates with one of
/// its secrets, in `Authorization: Basic` or as `client_secret`, at every endpoint that identifies a client; a public
/// client sends none.
@Suite("Client authentication: confidential clients")
struct ClientAuthenticationTests {
    static let secret = "s3cret-Of-The-Server-App_0123456789abcdefgh"
    /// The secret that replaces it: both are accepted while the configuration lists both.
    static let nextSecret = "next-Secret-Of-The-Server-App_0123456789ab"

    static func harness() throws -> PasskeyHarness {
        let hashes = [secret, nextSecret].map { "\"\(ClientsNewSecretCommand.hash(of: $0))\"" }.joined(separator: ", ")
        return try PasskeyHarness([
            "PASSKEYD_CLIENTS": """
            [{"client_id": "app", "grant_types": ["urn:okta:params:oauth:grant-type:webauthn", "refresh_token"]},
             {"client_id": "server", "grant_types": ["urn:okta:params:oauth:grant-type:webauthn", "refresh_token",
               "authorization_code"], "redirect_uris": ["https://example.com/callback"],
              "web_origins": ["https://example.com"], "client_secret_sha256": [\(hashes)]}]
            """
        ])
    }

    /// `Authorization: Basic` for `id` and `secret`, each form-urlencoded first (RFC 6749 §2.3.1).
    static func basic(_ id: String, _ secret: String) -> HTTPHeaders {
        let pair =
            FormURLEncoding.encode([(id, "")]).dropLast() + ":" + FormURLEncoding.encode([(secret, "")]).dropLast()
        return ["Authorization": "Basic " + Data(pair.utf8).base64EncodedString()]
    }

    static func challenge(_ harness: PasskeyHarness, _ body: JSONValue, headers: HTTPHeaders = [:]) async -> Response {
        await harness.client.post("/passkey/challenge", json: body, headers: headers)
    }

    static func expectRefused(_ response: Response, basic: Bool, _ comment: Comment? = nil) throws {
        #expect(response.status == 401, comment)
        #expect(try response.jsonValue()["error"] == "invalid_client", comment)
        #expect(try response.jsonValue()["error_description"] == "Client authentication failed.", comment)
        #expect((response.headers["WWW-Authenticate"]?.hasPrefix("Basic ") ?? false) == basic, comment)
    }

    @Test("a confidential client is refused without its secret or with another; either method and either secret pass")
    func challengeAuthenticates() async throws {
        let harness = try Self.harness()
        try Self.expectRefused(await Self.challenge(harness, ["client_id": "server"]), basic: false, "no secret")
        try Self.expectRefused(
            await Self.challenge(harness, ["client_id": "server", "client_secret": "wrong"]), basic: false, "wrong")
        try Self.expectRefused(
            await Self.challenge(harness, [:], headers: Self.basic("server", "wrong")), basic: true, "wrong Basic")
        for secret in [Self.secret, Self.nextSecret] {
            let posted = await Self.challenge(harness, ["client_id": "server", "client_secret": .string(secret)])
            #expect(posted.status == 200, "\(posted.bodyText)")
            let basic = await Self.challenge(harness, [:], headers: Self.basic("server", secret))
            #expect(basic.status == 200, "\(basic.bodyText)")
        }
        // The body may repeat the header's id, not name another.
        #expect(
            await Self.challenge(harness, ["client_id": "server"], headers: Self.basic("server", Self.secret)).status
                == 200)
        try Self.expectRefused(
            await Self.challenge(harness, ["client_id": "app"], headers: Self.basic("server", Self.secret)),
            basic: true)
        // RFC 6749 §2.3: one method per request.
        let twice = await Self.challenge(
            harness, ["client_secret": .string(Self.secret)], headers: Self.basic("server", Self.secret))
        #expect(twice.status == 400)
        #expect(try twice.jsonValue()["error"] == "invalid_request")
        // A Basic header that does not decode, and an unknown client named by one: invalid_client with the challenge.
        try Self.expectRefused(
            await Self.challenge(harness, [:], headers: ["Authorization": "Basic !!!"]), basic: true)
        // A secret beyond the longest read (512 bytes), and a header beyond the base64 of the longest credentials
        // (not decoded at all): refused as malformed, never compared.
        for length in [600, 3_000] {
            let long = Self.basic("server", String(repeating: "x", count: length))
            try Self.expectRefused(await Self.challenge(harness, [:], headers: long), basic: true, "\(length)")
            let logged = harness.logLines.all.last { $0.contains("invalid_client") } ?? ""
            #expect(logged.contains("basic_malformed"), "\(length): \(logged)")
        }
        let unknown = await Self.challenge(harness, [:], headers: Self.basic("nobody", "x"))
        #expect(unknown.status == 401)
        #expect(unknown.headers["WWW-Authenticate"]?.hasPrefix("Basic ") == true)
        #expect(!harness.logLines.all.joined().contains(Self.secret))
    }

    @Test("a public client sends no secret: one is refused, an empty Basic password is none")
    func publicClient() async throws {
        let harness = try Self.harness()
        #expect(await Self.challenge(harness, ["client_id": "app"]).status == 200)
        try Self.expectRefused(
            await Self.challenge(harness, ["client_id": "app", "client_secret": "anything"]), basic: false)
        #expect(await Self.challenge(harness, [:], headers: Self.basic("app", "")).status == 200)
        try Self.expectRefused(await Self.challenge(harness, [:], headers: Self.basic("app", "x")), basic: true)
    }

    @Test("the token endpoint and revocation authenticate the confidential client on every grant")
    func tokenEndpoint() async throws {
        let harness = try Self.harness()
        var passkey = Passkey()
        let authentication = Self.basic("server", Self.secret)
        // Sign-up, then a login, each with the secret: the grant's own request too.
        let register = await harness.client.post(
            "/passkey/register", json: ["user_profile": ["email": "srv@example.com"]], headers: authentication)
        #expect(register.status == 200, "\(register.bodyText)")
        let options = try #require(try register.jsonValue()["authn_params_public_key"])
        let grant: JSONValue = [
            "grant_type": "urn:okta:params:oauth:grant-type:webauthn",
            "auth_session": try #require(try register.jsonValue()["auth_session"]),
            "authn_response": try passkey.register(options), "scope": "openid offline_access",
        ]
        let withoutSecret = await harness.client.post(
            "/oauth/token", json: .object((grant.objectMembers ?? []) + [JSONMember(key: "client_id", value: "server")])
        )
        try Self.expectRefused(withoutSecret, basic: false)
        let tokens = await harness.client.post("/oauth/token", json: grant, headers: authentication)
        #expect(tokens.status == 200, "\(tokens.bodyText)")
        let refreshToken = try #require(try tokens.jsonValue()["refresh_token"]?.stringValue)

        // The refresh grant: refused without the secret (the token stays good), then with it in the body.
        try Self.expectRefused(await harness.refresh(refreshToken, clientID: "server"), basic: false)
        let refreshed = await harness.client.post(
            "/oauth/token",
            form: [
                ("grant_type", "refresh_token"), ("client_id", "server"), ("client_secret", Self.nextSecret),
                ("refresh_token", refreshToken),
            ])
        #expect(refreshed.status == 200, "\(refreshed.bodyText)")
        let rotated = try #require(try refreshed.jsonValue()["refresh_token"]?.stringValue)

        // RFC 7009 §2.1: revocation authenticates the client too; a refused one revokes nothing.
        let unauthenticated = await harness.client.post(
            "/oauth/revoke", form: [("client_id", "server"), ("token", rotated)])
        try Self.expectRefused(unauthenticated, basic: false)
        let revoked = await harness.client.post("/oauth/revoke", form: [("token", rotated)], headers: authentication)
        #expect(revoked.status == 200)
        let afterRevocation = await harness.client.post(
            "/oauth/token", form: [("grant_type", "refresh_token"), ("refresh_token", rotated)],
            headers: authentication)
        #expect(afterRevocation.status == 403, "\(afterRevocation.bodyText)")
    }

    @Test("a pushed authorization request authenticates the client, and the sealed request holds no secret")
    func pushedRequest() async throws {
        let harness = try Self.harness()
        let request: [(String, String)] = [
            ("response_type", "code"), ("redirect_uri", "https://example.com/callback"), ("scope", "openid"),
            ("code_challenge", HostedPageHarness.challenge), ("code_challenge_method", "S256"),
        ]
        let refused = await harness.client.post("/oauth/par", form: request + [("client_id", "server")])
        #expect(refused.status == 401)
        #expect(try refused.jsonValue()["error"] == "invalid_client")
        for (form, headers) in [
            (request + [("client_id", "server"), ("client_secret", Self.secret)], HTTPHeaders()),
            (request, Self.basic("server", Self.secret)),
        ] {
            let pushed = await harness.client.post("/oauth/par", form: form, headers: headers)
            #expect(pushed.status == 201, "\(pushed.bodyText)")
            let uri = try #require(try pushed.jsonValue()["request_uri"]?.stringValue)
            let sealed = String(uri.dropFirst(PushedAuthorizationRequest.uriPrefix.count))
            let opened = try #require(
                try harness.context.authSessionKey.pushedRequestSealer().open(sealed, now: harness.clock.now()))
            #expect(opened.parameters["client_secret"] == nil)
            #expect(opened.parameters["client_id"] == "server")
        }
    }

    @Test("clients new-secret prints a fresh secret and the hash a configuration lists for it")
    func newSecretCommand() async throws {
        var seen = Set<String>()
        for _ in 0..<2 {
            let (status, output, _) = await CommandRegistryTests.run(["clients", "new-secret"])
            #expect(status == 0)
            #expect(output.count == 2)
            let secret = try #require(output.first?.split(separator: " ").last.map(String.init))
            let hash = try #require(output.last?.split(separator: " ").last.map(String.init))
            #expect(output.first?.hasPrefix("client_secret: ") == true)
            #expect(output.last?.hasPrefix("client_secret_sha256: ") == true)
            #expect(Base64URL.decode(secret)?.count == 32)
            #expect(hash == Base64URL.encode(Digest.sha256(Array(secret.utf8))))
            // A configuration listing the hash accepts the secret.
            let harness = try PasskeyHarness([
                "PASSKEYD_CLIENTS": """
                [{"client_id": "app", "grant_types": ["urn:okta:params:oauth:grant-type:webauthn"],
                  "client_secret_sha256": ["\(hash)"]}]
                """
            ])
            let challenge = await Self.challenge(harness, ["client_id": "app", "client_secret": .string(secret)])
            #expect(challenge.status == 200)
            seen.insert(secret)
        }
        #expect(seen.count == 2)
    }

    @Test("client_secret_sha256 must be 43 base64url characters of a SHA-256; discovery lists the methods")
    func configurationAndDiscovery() async throws {
        #expect(throws: ConfigurationError.self) {
            try PasskeyHarness([
                "PASSKEYD_CLIENTS": #"[{"client_id": "server", "client_secret_sha256": ["not-a-hash"]}]"#
            ])
        }
        let harness = try Self.harness()
        let discovery = try await harness.client.get("/.well-known/openid-configuration").jsonValue()
        for member in ["token_endpoint_auth_methods_supported", "revocation_endpoint_auth_methods_supported"] {
            #expect(discovery[member] == ["none", "client_secret_basic", "client_secret_post", "private_key_jwt"])
        }
        // The command's hash is the one the configuration compares.
        var client = try #require(harness.context.configuration.client(id: "server"))
        #expect(client.isConfidential && client.accepts(secret: Self.secret) && !client.accepts(secret: "x"))
        client.secretHashes = []
        #expect(!client.isConfidential)
    }
}
