import Crypto
import Foundation
import HTTP
import JSON
import TestSupport
import Testing
import Tokens

@testable import Commands
@testable import Configuration
@testable import Endpoints
@testable import Service

/// `private_key_jwt` (RFC 7523 §2.2, OIDC Core §9): a client configured with `jwks` authenticates with an assertion
/// signed by one of its keys, at every endpoint that identifies a client; each assertion once.
@Suite("Client authentication: private_key_jwt")
struct PrivateKeyJWTTests {
    static let bank = "https://bank.example.com/"
    static let ecKey = Result { try P256SigningKey() }
    static let rsaKey = Result { try RSASigningKey(bits: 2048) }
    static let tokenEndpoint = "https://auth.example.com/oauth/token"

    static func harness() throws -> PasskeyHarness {
        let ec = ClientAssertionSigner(.p256(try ecKey.get())).publicJWK().serialized()
        let rsa = ClientAssertionSigner(.rsa(try rsaKey.get())).publicJWK(keyID: "rsa-1").serialized()
        let ecWithID = ClientAssertionSigner(.p256(try ecKey.get())).publicJWK(keyID: "ec-1").serialized()
        return try PasskeyHarness([
            "PASSKEYD_CLIENTS": """
            [{"client_id": "machine", "grant_types": ["client_credentials"],
              "jwks": {"keys": [\(String(decoding: ec, as: UTF8.self))]}},
             {"client_id": "webapp", "grant_types": ["urn:okta:params:oauth:grant-type:webauthn", "refresh_token"],
              "jwks": {"keys": [\(String(decoding: rsa, as: UTF8.self)), \(String(decoding: ecWithID, as: UTF8.self))]}},
             {"client_id": "portal", "grant_types": ["authorization_code"],
              "redirect_uris": ["https://example.com/callback"], "jwks": {"keys": [\(String(decoding: ec, as: UTF8.self))]}},
             {"client_id": "app", "grant_types": ["urn:okta:params:oauth:grant-type:webauthn", "refresh_token"]}]
            """,
            "PASSKEYD_APIS": #"[{"identifier": "\#(bank)", "scopes": [{"value": "payments:read"}]}]"#,
            "PASSKEYD_CLIENT_GRANTS":
                #"[{"client_id": "machine", "audience": "\#(bank)", "scopes": ["payments:read"]}]"#,
        ])
    }

    static func assertion(
        _ harness: PasskeyHarness, clientID: String = "machine", audience: String = tokenEndpoint,
        key: ClientAssertionSigner.Key? = nil, keyID: String? = nil, changes: [String: JSONValue] = [:]
    ) throws -> String {
        var claims = ClientAssertionSigner.claims(clientID: clientID, audience: audience, now: harness.clock.now())
        claims.merge(changes) { _, new in new }
        return try ClientAssertionSigner(try key ?? .p256(ecKey.get())).sign(claims, keyID: keyID)
    }

    static func machineToken(_ harness: PasskeyHarness, _ assertion: String, extra: [(String, String)] = [])
        async -> Response
    {
        await harness.client.post(
            "/oauth/token",
            form: [
                ("grant_type", "client_credentials"), ("audience", bank),
                ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"),
                ("client_assertion", assertion),
            ] + extra)
    }

    /// The log line of the last `invalid_client` refusal.
    static func lastRefusal(_ harness: PasskeyHarness) -> String {
        harness.logLines.all.last { $0.contains("invalid_client") } ?? ""
    }

    static func expectInvalidClient(_ response: Response, _ comment: Comment? = nil) throws {
        #expect(response.status == 401, comment)
        #expect(try response.jsonValue()["error"] == "invalid_client", comment)
        #expect(try response.jsonValue()["error_description"] == "Client authentication failed.", comment)
        #expect(response.headers["WWW-Authenticate"] == nil, comment)
    }

    @Test("a client_credentials token for an assertion, with or without client_id; the same assertion twice is refused")
    func machineToken() async throws {
        let harness = try Self.harness()
        let assertion = try Self.assertion(harness)
        let response = await Self.machineToken(harness, assertion)
        #expect(response.status == 200, "\(response.bodyText)")
        #expect(try response.jsonValue()["scope"] == "payments:read")
        // RFC 7523 §3 item 7: a jti is spent once, on any node (the store).
        try Self.expectInvalidClient(await Self.machineToken(harness, assertion), "replayed")
        // client_id may be sent, and must then be the assertion's.
        let named = await Self.machineToken(harness, try Self.assertion(harness), extra: [("client_id", "machine")])
        #expect(named.status == 200, "\(named.bodyText)")
        try Self.expectInvalidClient(
            await Self.machineToken(harness, try Self.assertion(harness), extra: [("client_id", "webapp")]),
            "another client's id")
        // aud may be the issuer, as Auth0's clients write it.
        let issuerAudience = await Self.machineToken(
            harness, try Self.assertion(harness, audience: "https://auth.example.com/"))
        #expect(issuerAudience.status == 200, "\(issuerAudience.bodyText)")
    }

    @Test("each defect of an assertion is invalid_client, with the check in the log code")
    func refusals() async throws {
        let harness = try Self.harness()
        let now = Int(harness.clock.now().timeIntervalSince1970)
        let other = ClientAssertionSigner.Key.p256(try P256SigningKey())
        let cases: [(String, String, String)] = [
            ("another key", try Self.assertion(harness, key: other), "client_assertion_invalid_signature"),
            (
                "another server", try Self.assertion(harness, audience: "https://other.example/"),
                "client_assertion_invalid_audience"
            ),
            (
                "expired", try Self.assertion(harness, changes: ["exp": .number(String(now - 120))]),
                "client_assertion_expired"
            ),
            ("sub another", try Self.assertion(harness, changes: ["sub": "webapp"]), "client_assertion_invalid_claim"),
            (
                "an hour and more", try Self.assertion(harness, changes: ["exp": .number(String(now + 4_000))]),
                "client_assertion_invalid_lifetime"
            ),
            ("not a JWT", "not-a-jwt", "client_assertion_malformed_token"),
        ]
        for (name, assertion, logCode) in cases {
            let response = await Self.machineToken(harness, assertion, extra: [("client_id", "machine")])
            try Self.expectInvalidClient(response, "\(name)")
            #expect(Self.lastRefusal(harness).contains(logCode), "\(name): \(logCode)")
        }
        // A public client has no keys to verify with.
        let publicClient = await Self.machineToken(
            harness, try Self.assertion(harness, clientID: "app"), extra: [("client_id", "app")])
        try Self.expectInvalidClient(publicClient, "public client")
        #expect(Self.lastRefusal(harness).contains("client_assertion_unexpected"))
    }

    @Test("the assertion's type must be jwt-bearer, and it is the request's one method")
    func oneMethod() async throws {
        let harness = try Self.harness()
        let assertion = try Self.assertion(harness)
        // A type without an assertion authenticates nothing.
        let typeAlone = await harness.client.post(
            "/oauth/token",
            form: [
                ("grant_type", "client_credentials"), ("client_id", "machine"),
                ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"),
            ])
        try Self.expectInvalidClient(typeAlone, "type alone")
        #expect(Self.lastRefusal(harness).contains("client_assertion_missing"))
        let wrongType = await harness.client.post(
            "/oauth/token",
            form: [
                ("grant_type", "client_credentials"), ("client_assertion_type", "urn:example:saml"),
                ("client_assertion", assertion),
            ])
        try Self.expectInvalidClient(wrongType, "type")
        let withSecret = await Self.machineToken(harness, assertion, extra: [("client_secret", "x")])
        #expect(withSecret.status == 400)
        #expect(try withSecret.jsonValue()["error"] == "invalid_request")
        let withBasic = await harness.client.post(
            "/oauth/token",
            form: [
                ("grant_type", "client_credentials"),
                ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"),
                ("client_assertion", assertion),
            ], headers: ClientAuthenticationTests.basic("machine", "x"))
        #expect(withBasic.status == 400)
        // A confidential client with keys only sends no secret.
        try Self.expectInvalidClient(
            await harness.client.post(
                "/oauth/token", form: [("grant_type", "client_credentials"), ("client_id", "machine")]),
            "nothing")
    }

    @Test("a passkey challenge of a client with keys: answered through the task path, the RSA key named by kid")
    func passkeyChallenge() async throws {
        let harness = try Self.harness()
        let assertion = try Self.assertion(
            harness, clientID: "webapp", audience: "https://auth.example.com/passkey/challenge",
            key: .rsa(try Self.rsaKey.get()), keyID: "rsa-1")
        let body: JSONValue = [
            "client_assertion_type": "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
            "client_assertion": .string(assertion),
        ]
        let response = await harness.client.post("/passkey/challenge", json: body)
        #expect(response.status == 200, "\(response.bodyText)")
        #expect(try response.jsonValue()["auth_session"]?.stringValue != nil)
        try Self.expectInvalidClient(await harness.client.post("/passkey/challenge", json: body), "replayed")
        // Without credentials, the client is refused (it is confidential).
        try Self.expectInvalidClient(await harness.client.post("/passkey/challenge", json: ["client_id": "webapp"]))
    }

    @Test("a pushed authorization request authenticated by an assertion for the PAR endpoint; none is sealed")
    func pushedRequest() async throws {
        let harness = try Self.harness()
        let assertion = try Self.assertion(
            harness, clientID: "portal", audience: "https://auth.example.com/oauth/par")
        let response = await harness.client.post(
            "/oauth/par",
            form: [
                ("response_type", "code"), ("redirect_uri", "https://example.com/callback"), ("scope", "openid"),
                ("code_challenge", String(repeating: "A", count: 43)), ("code_challenge_method", "S256"),
                ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"),
                ("client_assertion", assertion),
            ])
        #expect(response.status == 201, "\(response.bodyText)")
        let uri = try #require(try response.jsonValue()["request_uri"]?.stringValue)
        let sealed = String(uri.dropFirst(PushedAuthorizationRequest.uriPrefix.count))
        let pushed = try #require(try await harness.context.openPushedRequest(sealed, now: harness.clock.now()))
        #expect(pushed.clientID == "portal")
        #expect(pushed.parameters["client_assertion"] == nil && pushed.parameters["client_assertion_type"] == nil)
    }

    /// `der` as a PEM `PUBLIC KEY` block.
    static func pem(_ der: [UInt8]) -> String {
        "-----BEGIN PUBLIC KEY-----\n" + Data(der).base64EncodedString(options: .lineLength64Characters)
            + "\n-----END PUBLIC KEY-----\n"
    }

    @Test("passkeyd clients jwk: the JWK of a PEM public key, named by its thumbprint or --kid, read back as the key")
    func jwkCommand() throws {
        let ec = try Self.ecKey.get().publicKey
        let text = try ClientsJWKCommand.jwk(pem: "comment\n" + Self.pem(ec.derRepresentation), keyID: nil)
        let jwk = try JSONValue(parsing: Array(text.utf8))
        #expect(try JWTVerificationKey(jwk: jwk) == .es256(ec))
        #expect(jwk["kid"]?.stringValue == JWKThumbprint.of(ec))
        let rsa = try Self.rsaKey.get().publicKey
        let named = try JSONValue(
            parsing: Array(try ClientsJWKCommand.jwk(pem: Self.pem(rsa.derRepresentation), keyID: "rsa-9").utf8))
        #expect(try JWTVerificationKey(jwk: named) == .rs256(rsa))
        #expect(named["kid"] == "rsa-9" && named["alg"] == "RS256")
        // A certificate's key, as Auth0 also takes one.
        let ca = try AuthenticatorPolicyHarness.shared.get().attestationCA(
            aaguid: AuthenticatorPolicyHarness.otherAAGUID)
        let fromCertificate = try JSONValue(
            parsing: Array(try ClientsJWKCommand.jwk(pem: ca.leaf.pemText, keyID: nil).utf8))
        #expect(try JWTVerificationKey(jwk: fromCertificate) == .es256(ca.leafKey.publicKey))
        let weak = try RSASigningKey(bits: 1024).publicKey.derRepresentation
        for (name, pem) in [
            ("no block", "nothing here"),
            ("two blocks", Self.pem(ec.derRepresentation) + Self.pem(ec.derRepresentation)),
            ("1024-bit RSA", Self.pem(weak)), ("not a key", Self.pem([0x30, 0x03, 0x02, 0x01, 0x01])),
        ] {
            #expect(throws: CommandFailure.self, "\(name)") { try ClientsJWKCommand.jwk(pem: pem, keyID: nil) }
        }
    }

    @Test("jwks: public RSA or P-256 keys, named when several; a client with keys is confidential")
    func configuration() throws {
        let configuration = try Self.harness().context.configuration
        #expect(configuration.client(id: "machine")?.isConfidential == true)
        #expect(configuration.client(id: "webapp")?.assertionKeys.keys.sorted() == ["ec-1", "rsa-1"])
        let ec = String(
            decoding: ClientAssertionSigner(.p256(try Self.ecKey.get())).publicJWK().serialized(), as: UTF8.self)
        for (jwks, field) in [
            (#"{"keys": []}"#, "clients[0].jwks"), (#"[]"#, "clients[0].jwks"),
            (#"{"keys": [\#(ec), \#(ec)]}"#, "clients[0].jwks.keys[0].kid"),
            (#"{"keys": [{"kty": "EC", "crv": "P-256", "x": "AA", "y": "AA", "d": "AA"}]}"#, "clients[0].jwks.keys[0]"),
            (#"{"keys": [\#(ec.dropLast()), "kid": ""}]}"#, "clients[0].jwks.keys[0].kid"),
            (
                #"{"keys": [\#(ec.dropLast()), "kid": "\#(String(repeating: "k", count: 257))"}]}"#,
                "clients[0].jwks.keys[0].kid"
            ),
            (#"{"keys": [\#(Array(repeating: ec, count: 11).joined(separator: ", "))]}"#, "clients[0].jwks"),
        ] {
            let error = #expect(throws: ConfigurationError.self) {
                try TestConfiguration.make([
                    "PASSKEYD_CLIENTS":
                        #"[{"client_id": "m", "grant_types": ["client_credentials"], "jwks": \#(jwks)}]"#
                ])
            }
            #expect(error?.field == field, "\(jwks)")
        }
    }
}
