import Crypto
import Foundation
import HTTP
import JSON
import SoftwareClient
import TestSupport
import Testing
import Tokens

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

/// Issue #20 through the running daemon: APIs, client grants and scopes; RS256 ID tokens; the profile fields of
/// Auth0's SDKs; `organization`; Auth0's status codes; the refusals a web page acts on.
/// The passkey endpoints' answers to browsers and clients they do not serve (end to end).
extension APIsEndToEndTests {
    @Test("unauthorized_client is 400 at the passkey endpoints (Auth0's documented status), 403 at the token endpoint")
    func unauthorizedClientStatus() async throws {
        let server = try await Self.start()
        defer { Task { await server.stop() } }
        let register = try await server.post(
            "/passkey/register", ["client_id": "refresh-only", "user_profile": ["email": "u@example.com"]])
        let challenge = try await server.post("/passkey/challenge", ["client_id": "refresh-only"])
        for answer in [register, challenge] {
            #expect(answer.status == 400)
            #expect(answer.body["error"]?.stringValue == "unauthorized_client")
        }
        let token = try await server.post(
            "/oauth/token", ["grant_type": "refresh_token", "client_id": "no-refresh", "refresh_token": "x"])
        #expect(token.status == 403)
        #expect(token.body["error"]?.stringValue == "unauthorized_client")
        let unsupported = try await server.post("/oauth/token", ["grant_type": "password", "client_id": "app"])
        #expect(unsupported.status == 400)
        #expect(unsupported.body["error"]?.stringValue == "unsupported_grant_type")
    }

    @Test("an Origin the named client does not accept is refused at /passkey/register and /passkey/challenge")
    func originRefused() async throws {
        let server = try await Self.start()
        defer { Task { await server.stop() } }
        func post(_ path: String, _ clientID: String, origin: String) async throws -> (Int, JSONValue) {
            let body: JSONValue =
                path == "/passkey/register"
                ? ["client_id": .string(clientID), "user_profile": ["email": "o@example.com"]]
                : ["client_id": .string(clientID)]
            let (status, _, data) = try await server.send(
                "POST", path, body: Data(body.serialized()),
                headers: ["Content-Type": "application/json", "Origin": origin])
            return (status, (try? JSONValue(parsing: [UInt8](data))) ?? .null)
        }
        for path in ["/passkey/register", "/passkey/challenge"] {
            // `other`'s own web origin is not one `app` accepts.
            let refused = try await post(path, "app", origin: "https://other.example.com")
            #expect(refused.0 == 403, "\(path)")
            #expect(refused.1["error"]?.stringValue == "access_denied")
            #expect(try await post(path, "app", origin: "https://evil.example").0 == 403)
            #expect(try await post(path, "other", origin: "https://other.example.com").0 == 200)
            // The shared web origin is every client's.
            #expect(try await post(path, "app", origin: "https://example.com").0 == 200)
        }
    }

    @Test("the auth session outlives the WebAuthn timeout by the grace period (30 s), not longer")
    func gracePeriod() async throws {
        let clock = TestClock(Date())
        let server = try await Self.start(clock: clock)
        defer { Task { await server.stop() } }
        var alice = Passkey()
        let (options, session) = try await server.registerChallenge(email: "alice@example.com")
        #expect(options["timeout"]?.intValue == 60_000)
        clock.advance(60 + 25)
        #expect(try await server.token(session: session, response: alice.register(options)).status == 200)
        let (late, lateSession) = try await server.loginChallenge()
        clock.advance(60 + 31)
        let refused = try await server.token(session: lateSession, response: alice.assert(late))
        #expect(refused.status == 403)
        #expect(refused.body["error_description"]?.stringValue == "Invalid or expired auth_session.")
    }

    @Test(
        "an unknown credential at login is invalid_grant with a fixed description and passkey_error unknown_credential; other failures stay generic"
    )
    func unknownCredential() async throws {
        let server = try await Self.start()
        defer { Task { await server.stop() } }
        var alice = Passkey()
        _ = try await Self.signUp(server, &alice, email: "alice@example.com")
        // A passkey made for this RP whose registration never reached the server (or was deleted since).
        var stranger = Passkey()
        let (strangerOptions, _) = try await server.registerChallenge(email: "stranger@example.com")
        _ = try stranger.register(strangerOptions)
        let (options, session) = try await server.loginChallenge()
        let unknown = try await server.token(session: session, response: stranger.assert(options))
        #expect(unknown.status == 403)
        #expect(unknown.body["error"]?.stringValue == "invalid_grant")
        #expect(unknown.body["error_description"]?.stringValue == "The passkey is not registered with this server.")
        #expect(unknown.body["passkey_error"]?.stringValue == "unknown_credential")
        // A known credential with a bad signature: the generic answer, no passkey_error.
        let (again, secondSession) = try await server.loginChallenge()
        var tampering = CeremonyTampering()
        tampering.corruptsSignature = true
        let bad = try await server.token(session: secondSession, response: alice.assert(again, tampering))
        #expect(bad.status == 403)
        #expect(bad.body["error_description"]?.stringValue == "The passkey could not be verified.")
        #expect(bad.body["passkey_error"] == nil)
    }

    @Test("a refused preflight is logged with the refused origin")
    func refusedPreflightLogged() async throws {
        let lines = PasskeyHarness.LogLines()
        let server = try await Self.start(logger: Logger(sink: { lines.append($0) }))
        defer { Task { await server.stop() } }
        let (status, _, _) = try await server.send(
            "OPTIONS", "/passkey/register",
            headers: ["Origin": "https://evil.example", "Access-Control-Request-Method": "POST"])
        #expect(status == 403)
        let logged = lines.all.filter { $0.contains("preflight refused") }
        #expect(logged.count == 1)
        #expect(logged.first?.contains("https://evil.example") == true)
        #expect(logged.first?.contains("/passkey/register") == true)
    }
}
