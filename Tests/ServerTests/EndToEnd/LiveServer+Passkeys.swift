import Foundation
import HTTP
import JSON

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

/// Passkey flows against a running daemon, in the WebAuthn JSON wire form.
extension LiveServer {
    /// A daemon with the passkey test clients and realms, on SQLite in `directory` (fresh if nil).
    static func startForPasskeys(directory: URL? = nil) async throws -> LiveServer {
        guard let directory else { return try await start(environment: PasskeyHarness.overrides) }
        var overrides = PasskeyHarness.overrides
        overrides["PASSKEYD_LISTEN_PORT"] = "0"
        overrides["PASSKEYD_DATA_DIRECTORY"] = directory.path
        overrides["PASSKEYD_HTTP_SHUTDOWN_GRACE_SECONDS"] = "2"
        let configuration = try TestConfiguration.make(overrides)
        let running = try await PasskeydServer.start(configuration: configuration, logger: Logger(sink: { _ in }))
        return LiveServer(running: running, directory: directory)
    }

    /// Stops the daemon but keeps its database.
    func stopKeepingData() async {
        await running.stop()
    }

    /// POSTs JSON; returns status and parsed body (null when not JSON).
    func post(_ path: String, _ body: JSONValue) async throws -> (status: Int, body: JSONValue) {
        let (status, _, data) = try await send(
            "POST", path, body: Data(body.serialized()), headers: ["Content-Type": "application/json"])
        return (status, (try? JSONValue(parsing: [UInt8](data))) ?? .null)
    }

    func registerChallenge(email: String) async throws -> (options: JSONValue, session: String) {
        let (status, body) = try await post(
            "/passkey/register", ["client_id": "app", "user_profile": ["email": .string(email)]])
        guard status == 200, let options = body["authn_params_public_key"],
            let session = body["auth_session"]?.stringValue
        else {
            throw URLError(.badServerResponse)
        }
        return (options, session)
    }

    func loginChallenge() async throws -> (options: JSONValue, session: String) {
        let (status, body) = try await post("/passkey/challenge", ["client_id": "app"])
        guard status == 200, let options = body["authn_params_public_key"],
            let session = body["auth_session"]?.stringValue
        else {
            throw URLError(.badServerResponse)
        }
        return (options, session)
    }

    func token(session: String, response: JSONValue, audience: String? = nil) async throws
        -> (status: Int, body: JSONValue)
    {
        var body: JSONValue = [
            "grant_type": "urn:okta:params:oauth:grant-type:webauthn", "client_id": "app",
            "auth_session": .string(session),
            "authn_response": response, "scope": "openid email offline_access",
        ]
        if let audience {
            body = .object((body.objectMembers ?? []) + [JSONMember(key: "audience", value: .string(audience))])
        }
        return try await post("/oauth/token", body)
    }

    func refresh(_ token: String, audience: String? = nil) async throws -> (status: Int, body: JSONValue) {
        var body: JSONValue = ["grant_type": "refresh_token", "client_id": "app", "refresh_token": .string(token)]
        if let audience {
            body = .object((body.objectMembers ?? []) + [JSONMember(key: "audience", value: .string(audience))])
        }
        return try await post("/oauth/token", body)
    }

    /// Signs `authenticator` up and returns the token body.
    func signUp(_ authenticator: inout Passkey, email: String) async throws -> JSONValue {
        let (options, session) = try await registerChallenge(email: email)
        let (status, body) = try await token(session: session, response: authenticator.register(options))
        guard status == 200 else { throw URLError(.userAuthenticationRequired) }
        return body
    }

    /// One login; returns the status.
    func logIn(_ authenticator: inout Passkey) async throws -> Int {
        let (options, session) = try await loginChallenge()
        return try await token(session: session, response: authenticator.assert(options)).status
    }
}
