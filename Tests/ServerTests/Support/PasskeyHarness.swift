import Crypto
import Foundation
import HTTP
import JSON
import SoftwareClient
import Storage
import Synchronization
import TestSupport
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

/// The application on a MemoryStore with a settable clock, driven through `TestClient`, with the passkey flows
/// as one-line steps.
struct PasskeyHarness {
    let context: ServerContext
    let client: TestClient
    let clock: TestClock
    let logLines: LogLines

    /// Collected log lines.
    final class LogLines: Sendable {
        private let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    /// Clients and realms of the passkey tests (environment overrides of `TestConfiguration.make`): `app` (iOS +
    /// Android + web), `other` (web, both grants), `refresh-only` (no webauthn grant), `no-refresh` (webauthn
    /// only); realms `main` (email required, default) and `phones` (phone required, username optional).
    static let overrides: [String: String] = [
        "PASSKEYD_CLIENTS": """
        [{"client_id": "app",
          "grant_types": ["urn:okta:params:oauth:grant-type:webauthn", "refresh_token"],
          "mobile": {
            "ios": {"team_id": "ABCDE12345", "app_bundle_identifier": "com.example.app"},
            "android": {"app_package_name": "com.example.app", "sha256_cert_fingerprints": ["\(fingerprint)"]}}},
         {"client_id": "other", "grant_types": ["urn:okta:params:oauth:grant-type:webauthn", "refresh_token"],
          "web_origins": ["https://other.example.com"]},
         {"client_id": "refresh-only", "grant_types": ["refresh_token"]},
         {"client_id": "no-refresh", "grant_types": ["urn:okta:params:oauth:grant-type:webauthn"]}]
        """,
        "PASSKEYD_REALMS": """
        [{"name": "main", "default": true, "identifiers": {"email": "required"}},
         {"name": "phones", "identifiers": {"phone_number": "required", "username": "optional"},
          "username_policy": {"min_length": 3, "max_length": 20}}]
        """,
    ]

    /// The Android signing-certificate fingerprint configured for `app`.
    static let fingerprint = (0..<32).map { _ in "AB" }.joined(separator: ":")
    /// The Android origin derived from it.
    static let androidOrigin = "android:apk-key-hash:" + Base64URL.encode([UInt8](repeating: 0xAB, count: 32))

    init(
        _ extra: [String: String] = [:], store: any Store = MemoryStore(),
        recording: ((Logger) throws -> CeremonyRecorder)? = nil
    ) throws {
        let overrides = Self.overrides.merging(extra) { _, new in new }
        let clock = TestClock()
        let lines = LogLines()
        let logger = Logger(sink: { lines.append($0) })
        let context = ServerContext(
            configuration: try TestConfiguration.make(overrides), store: store, logger: logger, clock: clock,
            recorder: try recording?(logger))
        // What a start loads from the store (`ServerContext.loadAuthSessionKey`).
        try context.authSessionKey.install(secret: try SecureRandom.bytes(count: 32))
        self.context = context
        self.clock = clock
        self.logLines = lines
        self.client = TestClient(responder: Application(context: context))
    }

    func post(_ path: String, _ body: JSONValue) async -> Response {
        await client.post(path, json: body)
    }

    /// `POST /passkey/register` for `email`.
    func registerChallenge(email: String = "Alice@Example.com", clientID: String = "app") async -> Response {
        await post("/passkey/register", ["client_id": .string(clientID), "user_profile": ["email": .string(email)]])
    }

    /// `POST /passkey/challenge`.
    func loginChallenge(clientID: String = "app") async -> Response {
        await post("/passkey/challenge", ["client_id": .string(clientID)])
    }

    /// `POST /oauth/token` with the webauthn grant.
    func token(
        session: String, response: JSONValue, scope: String? = "openid profile email offline_access",
        clientID: String = "app", audience: String? = nil
    ) async -> Response {
        var body: [JSONMember] = [
            JSONMember(key: "grant_type", value: "urn:okta:params:oauth:grant-type:webauthn"),
            JSONMember(key: "client_id", value: .string(clientID)),
            JSONMember(key: "auth_session", value: .string(session)),
            JSONMember(key: "authn_response", value: response),
        ]
        if let scope { body.append(JSONMember(key: "scope", value: .string(scope))) }
        if let audience { body.append(JSONMember(key: "audience", value: .string(audience))) }
        return await post("/oauth/token", .object(body))
    }

    /// Signs `authenticator` up, its registration changed by `tampering`; returns the token response (expects 200).
    func signUp(
        _ authenticator: inout Passkey, email: String = "alice@example.com", tampering: CeremonyTampering = .none,
        audience: String? = nil
    ) async throws -> JSONValue {
        let challenge = try await registerChallenge(email: email).jsonValue()
        let options = try #require(challenge["authn_params_public_key"])
        let session = try #require(challenge["auth_session"]?.stringValue)
        let response = await token(
            session: session, response: try authenticator.register(options, tampering), audience: audience)
        try #require(response.status == 200, "signup: \(response.status) \(response.bodyText)")
        return try response.jsonValue()
    }

    /// A sign-up of a new authenticator for `email` in its two requests, `/passkey/register` (a read) and the
    /// webauthn grant (one write: the session spent, the user stored); the grant's answer, whatever it is.
    func signUpAttempt(email: String) async throws -> Response {
        var authenticator = Passkey()
        let challenge = try await registerChallenge(email: email).jsonValue()
        let options = try #require(challenge["authn_params_public_key"])
        let session = try #require(challenge["auth_session"]?.stringValue)
        return await token(session: session, response: try authenticator.register(options))
    }

    /// A fresh login challenge: (options, auth_session).
    func loginOptions() async throws -> (JSONValue, String) {
        let challenge = try await loginChallenge().jsonValue()
        return (
            try #require(challenge["authn_params_public_key"]), try #require(challenge["auth_session"]?.stringValue)
        )
    }

    /// Logs `authenticator` in (for `audience`, when given); returns the response.
    func logIn(_ authenticator: inout Passkey, audience: String? = nil) async throws -> Response {
        let (options, session) = try await loginOptions()
        return await token(session: session, response: try authenticator.assert(options), audience: audience)
    }

    /// `POST /oauth/token` with the refresh_token grant.
    func refresh(_ token: String, clientID: String = "app", audience: String? = nil) async -> Response {
        var body: [JSONMember] = [
            JSONMember(key: "grant_type", value: "refresh_token"),
            JSONMember(key: "client_id", value: .string(clientID)),
            JSONMember(key: "refresh_token", value: .string(token)),
        ]
        if let audience { body.append(JSONMember(key: "audience", value: .string(audience))) }
        return await post("/oauth/token", .object(body))
    }

    /// Whether a security event with this name was counted.
    func counted(_ event: String) -> Bool {
        context.metrics.render().contains("event=\"\(event)\"")
    }
}
