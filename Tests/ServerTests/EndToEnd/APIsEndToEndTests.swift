import Crypto
import Foundation
import HTTP
import JSON
import TestSupport
import Testing
import Tokens

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

/// Issue #20 through the running daemon: APIs, client grants and scopes; RS256 ID tokens; the profile fields of
/// Auth0's SDKs; `organization`; Auth0's status codes; the refusals a web page acts on.
@Suite("APIs, scopes, RS256 and browser refusals (end to end)")
struct APIsEndToEndTests {
    static let bank = "https://bank.example/api"
    static let ledger = "https://ledger.example/"
    static let metadataClaim = "https://example.com/user_metadata"

    /// The passkey test clients plus `es-app` (ES256 ID tokens); the bank API (RS256 access tokens, 600 s) granted
    /// to `app` with `payments:read` only; the ledger API without offline access, granted to `app`.
    static var environment: [String: String] {
        var overrides = PasskeyHarness.overrides
        let clients = overrides["PASSKEYD_CLIENTS"] ?? "[]"
        overrides["PASSKEYD_CLIENTS"] =
            String(clients.dropLast())
                + """
                , {"client_id": "es-app", "grant_types": ["urn:okta:params:oauth:grant-type:webauthn"],
                   "id_token_signed_response_alg": "ES256"}]
                """
        overrides["PASSKEYD_APIS"] = """
            [{"identifier": "\(bank)", "name": "Bank", "signing_alg": "RS256", "access_token_lifetime_seconds": 600,
              "scopes": [{"value": "payments:read", "description": "read"}, {"value": "payments:write"}]},
             {"identifier": "\(ledger)", "scopes": [{"value": "ledger:read"}], "allow_offline_access": false}]
            """
        overrides["PASSKEYD_CLIENT_GRANTS"] = """
            [{"client_id": "app", "audience": "\(bank)", "scopes": ["payments:read"]},
             {"client_id": "app", "audience": "\(ledger)", "scopes": ["ledger:read"]}]
            """
        overrides["PASSKEYD_TOKENS_USER_METADATA_CLAIM"] = metadataClaim
        return overrides
    }

    static func start(clock: any WallClock = SystemClock(), logger: Logger = Logger(sink: { _ in })) async throws
        -> LiveServer
    {
        try await LiveServer.start(environment: environment, clock: clock, logger: logger)
    }

    /// A sign-up of `authenticator` with `extra` token parameters, profile members and top-level `register`
    /// members of `/passkey/register`; returns status and body.
    static func signUp(
        _ server: LiveServer, _ authenticator: inout Passkey, email: String, clientID: String = "app",
        profile: [JSONMember] = [], register: [JSONMember] = [], token extra: [JSONMember] = []
    ) async throws -> (status: Int, body: JSONValue) {
        let (status, body) = try await server.post(
            "/passkey/register",
            .object(
                [
                    JSONMember(key: "client_id", value: .string(clientID)),
                    JSONMember(
                        key: "user_profile",
                        value: .object([JSONMember(key: "email", value: .string(email))] + profile)),
                ] + register))
        guard status == 200, let options = body["authn_params_public_key"], let session = body["auth_session"] else {
            return (status, body)
        }
        return try await server.post(
            "/oauth/token",
            .object(
                [
                    JSONMember(key: "grant_type", value: "urn:okta:params:oauth:grant-type:webauthn"),
                    JSONMember(key: "client_id", value: .string(clientID)),
                    JSONMember(key: "auth_session", value: session),
                    JSONMember(key: "authn_response", value: try authenticator.register(options)),
                ] + extra))
    }

    /// The verifier a resource server builds from `/.well-known/jwks.json`: EC and RSA keys, each with its `alg`.
    static func verifier(_ server: LiveServer) async throws -> (JWTVerifier, [JSONValue]) {
        let jwks = try JSONValue(parsing: [UInt8](try await server.send("GET", "/.well-known/jwks.json").body))
        let keys = try #require(jwks["keys"]?.arrayValue)
        var published: [String: JWTVerificationKey] = [:]
        for jwk in keys {
            let kid = try #require(jwk["kid"]?.stringValue)
            func bytes(_ name: String) throws -> [UInt8] {
                try #require(jwk[name]?.stringValue.flatMap { Base64URL.decode($0) })
            }
            switch jwk["kty"]?.stringValue {
            case "EC": published[kid] = .es256(try ECPublicKey(curve: .p256, x: try bytes("x"), y: try bytes("y")))
            case "RSA": published[kid] = .rs256(try RSAPublicKey(modulus: try bytes("n"), exponent: try bytes("e")))
            default: Issue.record("unexpected JWK \(jwk)")
            }
        }
        return (JWTVerifier(keys: published), keys)
    }

    static func header(_ token: String) throws -> JSONValue {
        try JSONValue(parsing: try #require(Base64URL.decode(String(token.split(separator: ".")[0]))))
    }

    static func verify(_ token: String, type: String, audience: String, _ server: LiveServer) async throws
        -> VerifiedJWT
    {
        try await verifier(server).0.verify(
            token,
            expecting: JWTExpectations(
                type: type, issuer: server.running.context.configuration.issuer, audience: audience, now: Date()))
    }

    @Test(
        "1. an unknown audience and an ungranted API are 403 access_denied before the session is spent; ungranted scopes are dropped and `scope` says what was granted"
    )
    func audiencesAndScopes() async throws {
        let server = try await Self.start()
        defer { Task { await server.stop() } }
        var alice = Passkey()
        _ = try await Self.signUp(server, &alice, email: "alice@example.com")
        // An audience that is no API: Auth0's answer, and the auth session is still usable afterwards.
        let (options, session) = try await server.loginChallenge()
        let assertion = try alice.assert(options)
        func login(_ audience: String, _ scope: String, clientID: String = "app", session: String)
            async throws -> (status: Int, body: JSONValue)
        {
            try await server.post(
                "/oauth/token",
                [
                    "grant_type": "urn:okta:params:oauth:grant-type:webauthn", "client_id": .string(clientID),
                    "auth_session": .string(session), "authn_response": assertion, "audience": .string(audience),
                    "scope": .string(scope),
                ])
        }
        let unknown = try await login("https://unknown.example/api", "openid", session: session)
        #expect(unknown.status == 403)
        #expect(unknown.body["error"]?.stringValue == "access_denied")
        #expect(unknown.body["error_description"]?.stringValue == "Service not found: https://unknown.example/api")
        // The self-made user of the issue asks for everything: only what the grant lists is granted.
        let granted = try await login(
            Self.bank, "openid offline_access admin:all payments:write payments:read", session: session)
        #expect(granted.status == 200)
        #expect(granted.body["scope"]?.stringValue == "openid offline_access payments:read")
        #expect(granted.body["expires_in"]?.intValue == 600)
        let access = try #require(granted.body["access_token"]?.stringValue)
        #expect(try Self.header(access)["alg"]?.stringValue == "RS256", "access tokens follow the API's algorithm")
        let claims = try await Self.verify(access, type: "at+jwt", audience: Self.bank, server)
        #expect(claims.audience == [Self.bank, server.running.context.configuration.issuer])
        #expect(
            try JSONValue(parsing: claims.rawPayload)["scope"]?.stringValue == "openid offline_access payments:read")
        // An API the client has no grant for: `other` may use the built-in APIs only.
        var bob = Passkey()
        bob.origin = "https://other.example.com"
        let (registerStatus, registered) = try await server.post(
            "/passkey/register", ["client_id": "other", "user_profile": ["email": "bob@example.com"]])
        #expect(registerStatus == 200)
        let refused = try await server.post(
            "/oauth/token",
            [
                "grant_type": "urn:okta:params:oauth:grant-type:webauthn", "client_id": "other",
                "auth_session": try #require(registered["auth_session"]),
                "authn_response": try bob.register(try #require(registered["authn_params_public_key"])),
                "audience": .string(Self.bank),
            ])
        #expect(refused.status == 403)
        #expect(refused.body["error"]?.stringValue == "access_denied")
        #expect(
            refused.body["error_description"]?.stringValue == "Client is not authorized to access \"\(Self.bank)\".")
        // An API without offline access: no refresh token, and `offline_access` is not granted.
        let (ledgerOptions, ledgerSession) = try await server.loginChallenge()
        let ledger = try await server.post(
            "/oauth/token",
            [
                "grant_type": "urn:okta:params:oauth:grant-type:webauthn", "client_id": "app",
                "auth_session": .string(ledgerSession), "authn_response": try alice.assert(ledgerOptions),
                "audience": .string(Self.ledger), "scope": "openid offline_access ledger:read",
            ])
        #expect(ledger.status == 200)
        #expect(ledger.body["scope"]?.stringValue == "openid ledger:read")
        #expect(ledger.body["refresh_token"] == nil)
    }

    @Test(
        "1. a refresh narrows scope or audience within the grant, never widens it, and a refused one leaves the token valid"
    )
    func refreshNarrowsNeverWidens() async throws {
        let server = try await Self.start()
        defer { Task { await server.stop() } }
        var alice = Passkey()
        let signedUp = try await Self.signUp(
            server, &alice, email: "alice@example.com",
            token: [
                JSONMember(key: "audience", value: .string(Self.bank)),
                JSONMember(key: "scope", value: "openid offline_access payments:read"),
            ])
        #expect(signedUp.status == 200)
        var refreshToken = try #require(signedUp.body["refresh_token"]?.stringValue)
        func refresh(_ extra: [JSONMember]) async throws -> (status: Int, body: JSONValue) {
            try await server.post(
                "/oauth/token",
                .object(
                    [
                        JSONMember(key: "grant_type", value: "refresh_token"),
                        JSONMember(key: "client_id", value: "app"),
                        JSONMember(key: "refresh_token", value: .string(refreshToken)),
                    ] + extra))
        }
        // Wider scope: invalid_scope, the token unspent.
        let wider = try await refresh([JSONMember(key: "scope", value: "openid payments:read payments:write")])
        #expect(wider.status == 400)
        #expect(wider.body["error"]?.stringValue == "invalid_scope")
        // Another API (the issue's "a refresh moved the family to another audience"): access_denied, token unspent.
        let moved = try await refresh([JSONMember(key: "audience", value: .string(Self.ledger))])
        #expect(moved.status == 403)
        #expect(moved.body["error"]?.stringValue == "access_denied")
        // Narrower: fine, and the family keeps its grant.
        let narrowed = try await refresh([JSONMember(key: "scope", value: "openid")])
        #expect(narrowed.status == 200, "the refused refreshes left the token valid")
        #expect(narrowed.body["scope"]?.stringValue == "openid")
        refreshToken = try #require(narrowed.body["refresh_token"]?.stringValue)
        // Narrowed to the issuer's API (named by the original tokens too, with `openid`).
        let userinfoOnly = try await refresh([
            JSONMember(key: "audience", value: .string(server.running.context.configuration.issuer))
        ])
        #expect(userinfoOnly.status == 200)
        #expect(userinfoOnly.body["scope"]?.stringValue == "openid offline_access")
        let token = try #require(userinfoOnly.body["access_token"]?.stringValue)
        let claims = try await Self.verify(
            token, type: "at+jwt", audience: server.running.context.configuration.issuer, server)
        #expect(claims.audience == [server.running.context.configuration.issuer])
        refreshToken = try #require(userinfoOnly.body["refresh_token"]?.stringValue)
        let original = try await refresh([])
        #expect(original.status == 200)
        #expect(original.body["scope"]?.stringValue == "openid offline_access payments:read")
    }

    @Test(
        "2. ID tokens are RS256 by default and ES256 when the client asks; JWKS publishes both with use/alg/kid and discovery lists both"
    )
    func idTokenAlgorithms() async throws {
        let server = try await Self.start()
        defer { Task { await server.stop() } }
        let discovery = try JSONValue(
            parsing: [UInt8](try await server.send("GET", "/.well-known/openid-configuration").body))
        #expect(discovery["id_token_signing_alg_values_supported"] == ["RS256", "ES256"])
        let (_, keys) = try await Self.verifier(server)
        #expect(Set(keys.compactMap { $0["alg"]?.stringValue }) == ["RS256", "ES256"])
        #expect(keys.allSatisfy { $0["use"]?.stringValue == "sig" && $0["kid"]?.stringValue != nil })
        let rsa = try #require(keys.first { $0["kty"]?.stringValue == "RSA" })
        #expect((try #require(rsa["n"]?.stringValue.flatMap { Base64URL.decode($0) })).count * 8 >= 2048)

        var alice = Passkey()
        let rs = try await Self.signUp(server, &alice, email: "alice@example.com")
        let rsToken = try #require(rs.body["id_token"]?.stringValue)
        #expect(try Self.header(rsToken)["alg"]?.stringValue == "RS256")
        #expect(try await Self.verify(rsToken, type: "JWT", audience: "app", server).subject != nil)
        let access = try #require(rs.body["access_token"]?.stringValue)
        #expect(
            try Self.header(access)["alg"]?.stringValue == "RS256",
            "the issuer's API signs RS256 (tokens.access_token_signing_alg's default)")

        var carol = Passkey()
        let es = try await Self.signUp(server, &carol, email: "carol@example.com", clientID: "es-app")
        let esToken = try #require(es.body["id_token"]?.stringValue)
        #expect(try Self.header(esToken)["alg"]?.stringValue == "ES256")
        #expect(try await Self.verify(esToken, type: "JWT", audience: "es-app", server).subject != nil)
    }

    @Test(
        "3. given_name, family_name, nickname, picture and (top-level) user_metadata are stored and returned; bad ones are 400"
    )
    func profileFields() async throws {
        let server = try await Self.start()
        defer { Task { await server.stop() } }
        var alice = Passkey()
        let profile: [JSONMember] = [
            JSONMember(key: "given_name", value: "Alice"), JSONMember(key: "family_name", value: "Liddell"),
            JSONMember(key: "nickname", value: "ally"), JSONMember(key: "picture", value: "https://example.com/a.png"),
        ]
        // Where Auth0's SDKs send it: at the top level, flat strings (UserMetadataTests has its rules).
        let signedUp = try await Self.signUp(
            server, &alice, email: "alice@example.com", profile: profile,
            register: [JSONMember(key: "user_metadata", value: ["plan": "gold", "lang": "fr"])],
            token: [JSONMember(key: "scope", value: "openid profile email")])
        #expect(signedUp.status == 200)
        let id = try await Self.verify(
            try #require(signedUp.body["id_token"]?.stringValue), type: "JWT", audience: "app", server)
        let claims = try JSONValue(parsing: id.rawPayload)
        #expect(claims["given_name"]?.stringValue == "Alice")
        #expect(claims["family_name"]?.stringValue == "Liddell")
        #expect(claims["nickname"]?.stringValue == "ally")
        #expect(claims["picture"]?.stringValue == "https://example.com/a.png")
        #expect(claims[Self.metadataClaim] == ["lang": "fr", "plan": "gold"])
        let access = try #require(signedUp.body["access_token"]?.stringValue)
        let (_, _, data) = try await server.send("GET", "/userinfo", headers: ["Authorization": "Bearer \(access)"])
        let userinfo = try JSONValue(parsing: [UInt8](data))
        #expect(userinfo["given_name"]?.stringValue == "Alice")
        #expect(userinfo["picture"]?.stringValue == "https://example.com/a.png")
        #expect(userinfo[Self.metadataClaim]?["lang"]?.stringValue == "fr")

        for (member, value) in [
            ("picture", JSONValue.string("http://example.com/a.png")),
            ("picture", .string("javascript:alert(1)")),
            ("given_name", .string("")),
            ("user_metadata", ["plan": "gold"]),
        ] {
            var someone = Passkey()
            let refused = try await Self.signUp(
                server, &someone, email: "x@example.com", profile: [JSONMember(key: member, value: value)])
            #expect(refused.status == 400, "\(member): \(value)")
            #expect(refused.body["error"]?.stringValue == "invalid_request")
        }
    }

    @Test("4. a request naming an organization, from a client that denies them (the default), is 400 invalid_request")
    func organization() async throws {
        let server = try await Self.start()
        defer { Task { await server.stop() } }
        for (path, body) in [
            (
                "/passkey/register",
                ["client_id": "app", "organization": "org_1", "user_profile": ["email": "o@example.com"]]
            ),
            ("/passkey/challenge", ["client_id": "app", "organization": "org_1"]),
            (
                "/oauth/token",
                ["grant_type": "refresh_token", "client_id": "app", "organization": "org_1", "refresh_token": "x"]
            ),
        ] as [(String, JSONValue)] {
            let answer = try await server.post(path, body)
            #expect(answer.status == 400, "\(path)")
            #expect(answer.body["error"]?.stringValue == "invalid_request")
            // Auth0's words (organization_usage "deny"); the refresh grant takes none from any client.
            #expect(
                answer.body["error_description"]?.stringValue
                    == (path == "/oauth/token"
                        ? "parameter organization is not allowed for this grant"
                        : "parameter organization is not allowed for this client"))
        }
    }
}
