import Foundation
import HTTP
import JSON

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

/// The passkey-lifecycle and recovery calls against a running daemon.
extension LiveServer {
    /// The passkey clients, with `app` also allowed the recovery grant and configured with `hints`.
    static func startForLifecycle(clock: any WallClock = SystemClock()) async throws -> LiveServer {
        try await start(environment: lifecycleOverrides, clock: clock)
    }

    /// The environment of `startForLifecycle`.
    static var lifecycleOverrides: [String: String] {
        var overrides = PasskeyHarness.overrides
        overrides["PASSKEYD_CLIENTS"] = """
            [{"client_id": "app",
              "grant_types": ["urn:okta:params:oauth:grant-type:webauthn", "refresh_token",
                              "urn:passkeyd:params:oauth:grant-type:recovery-code"],
              "hints": ["client-device", "hybrid"],
              "mobile": {"ios": {"team_id": "ABCDE12345", "app_bundle_identifier": "com.example.app"}}}]
            """
        return overrides
    }

    /// Sends `method` with a Bearer token and an optional JSON body; returns status and parsed body.
    func call(_ method: String, _ path: String, token: String, body: JSONValue? = nil) async throws -> (
        status: Int, body: JSONValue
    ) {
        var headers = ["Authorization": "Bearer \(token)"]
        if body != nil { headers["Content-Type"] = "application/json" }
        let (status, _, data) = try await send(
            method, path, body: body.map { Data($0.serialized()) }, headers: headers)
        return (status, (try? JSONValue(parsing: [UInt8](data))) ?? .null)
    }

    /// A fresh login's access token for `authenticator`, and its refresh token: for the account API (`<issuer>me/`,
    /// what `/me/…` accepts) unless `audience` names another.
    func loginTokens(_ authenticator: inout Passkey, audience: String? = nil) async throws -> (
        access: String, refresh: String?
    ) {
        let (options, session) = try await loginChallenge()
        let (status, body) = try await token(
            session: session, response: authenticator.assert(options),
            audience: audience ?? TestConfiguration.accountAudience)
        guard status == 200, let access = body["access_token"]?.stringValue else {
            throw URLError(.userAuthenticationRequired)
        }
        return (access, body["refresh_token"]?.stringValue)
    }

    /// `POST /me/passkeys/challenge`.
    func addChallenge(token: String) async throws -> (status: Int, body: JSONValue) {
        try await call("POST", "/me/passkeys/challenge", token: token)
    }

    /// Adds `authenticator`'s new credential with `token`; returns the status and body of `POST /me/passkeys`.
    func addPasskey(_ authenticator: inout Passkey, token: String) async throws -> (status: Int, body: JSONValue) {
        let (status, body) = try await addChallenge(token: token)
        guard status == 200, let options = body["authn_params_public_key"],
            let session = body["auth_session"]?.stringValue
        else { return (status, body) }
        let response = try authenticator.register(options)
        return try await call(
            "POST", "/me/passkeys", token: token, body: ["auth_session": .string(session), "authn_response": response])
    }

    /// `POST /recovery/challenge` then the recovery grant with `code`.
    func recover(identifier: String, code: String) async throws -> (status: Int, body: JSONValue) {
        let (status, challenge) = try await post(
            "/recovery/challenge", ["client_id": "app", "identifier": .string(identifier)])
        guard status == 200, let session = challenge["auth_session"]?.stringValue else { return (status, challenge) }
        return try await post(
            "/oauth/token",
            [
                "grant_type": "urn:passkeyd:params:oauth:grant-type:recovery-code", "client_id": "app",
                "auth_session": .string(session), "recovery_code": .string(code),
            ])
    }
}
