import HTTP
import JSON
import TestSupport
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

/// The CORS protocol (Fetch standard §3.2) on the web-app endpoints. The harness configures `https://example.com`
/// at the top level and `https://other.example.com` for the client `other`.
@Suite("CORS for web apps")
struct CrossOriginTests {
    static let page = "https://example.com"

    static func preflight(
        _ harness: PasskeyHarness, _ path: String, origin: String, method: String = "POST"
    ) async -> Response {
        await harness.client.execute(
            .options, path,
            headers: [
                "Origin": origin, "Access-Control-Request-Method": method,
                "Access-Control-Request-Headers": "content-type",
            ])
    }

    @Test(
        "a preflight from a configured web origin is granted on each web-app endpoint",
        arguments: [
            "/passkey/register", "/passkey/challenge", "/oauth/token", "/oauth/revoke", "/oauth/par", "/userinfo",
        ])
    func preflightGranted(path: String) async throws {
        let harness = try PasskeyHarness()
        let response = await Self.preflight(harness, path, origin: Self.page)
        #expect(response.status == 204)
        #expect(response.headers["Access-Control-Allow-Origin"] == Self.page)
        #expect(response.headers["Access-Control-Allow-Methods"]?.contains("POST") == true)
        #expect(response.headers["Access-Control-Allow-Headers"]?.contains("Content-Type") == true)
        #expect(response.headers["Access-Control-Allow-Headers"]?.contains("Authorization") == true)
        #expect(response.headers["Access-Control-Max-Age"] == "600")
        #expect(response.headers["Vary"]?.contains("Origin") == true)
        #expect(response.headers["Access-Control-Allow-Credentials"] == nil)
        #expect(response.route == path)
    }

    @Test("a client's own web origin is allowed as well as the top-level ones")
    func clientOrigin() async throws {
        let harness = try PasskeyHarness()
        let response = await Self.preflight(harness, "/oauth/token", origin: "https://other.example.com")
        #expect(response.status == 204)
        #expect(response.headers["Access-Control-Allow-Origin"] == "https://other.example.com")
    }

    @Test(
        "a preflight from any other origin is refused without CORS fields",
        arguments: [
            "https://evil.example", "http://example.com", "https://example.com:8443", "https://sub.example.com", "null",
            "android:apk-key-hash:" + String(repeating: "q", count: 43),
        ])
    func preflightRefused(origin: String) async throws {
        let harness = try PasskeyHarness()
        let response = await Self.preflight(harness, "/passkey/challenge", origin: origin)
        #expect(response.status == 403)
        #expect(try response.jsonValue()["error"] == "origin_not_allowed")
        #expect(response.headers["Access-Control-Allow-Origin"] == nil)
        #expect(response.headers["Vary"]?.contains("Origin") == true)
    }

    @Test("a preflight for a method the endpoint lacks is 405 with Allow, without CORS fields")
    func preflightWrongMethod() async throws {
        let harness = try PasskeyHarness()
        let response = await Self.preflight(harness, "/oauth/token", origin: Self.page, method: "DELETE")
        #expect(response.status == 405)
        #expect(response.headers["Allow"] == "POST")
        #expect(response.headers["Access-Control-Allow-Origin"] == nil)
    }

    @Test("endpoints outside CORS answer preflights as before: 405, or 404 for no route")
    func outsideCORS() async throws {
        let harness = try PasskeyHarness()
        for path in ["/device-keys", "/healthz", "/.well-known/assetlinks.json"] {
            let response = await Self.preflight(harness, path, origin: Self.page)
            #expect(response.status == 405, "\(path)")
            #expect(response.headers["Access-Control-Allow-Origin"] == nil, "\(path)")
        }
        #expect(await Self.preflight(harness, "/nope", origin: Self.page).status == 404)
        let read = await harness.client.get("/healthz", headers: ["Origin": Self.page])
        #expect(read.headers["Access-Control-Allow-Origin"] == nil)
        // OPTIONS without Access-Control-Request-Method is not a preflight: the router's answer.
        let plain = await harness.client.execute(.options, "/oauth/token", headers: ["Origin": Self.page])
        #expect(plain.status == 405)
    }

    @Test("an actual request from an allowed origin is readable, errors included; from another origin it is not")
    func actualRequests() async throws {
        let harness = try PasskeyHarness()
        let allowed = await harness.client.post(
            "/passkey/challenge", json: ["client_id": "app"] as JSONValue, headers: ["Origin": Self.page])
        #expect(allowed.status == 200)
        #expect(allowed.headers["Access-Control-Allow-Origin"] == Self.page)
        #expect(allowed.headers["Vary"]?.contains("Origin") == true)
        #expect(allowed.headers["Access-Control-Expose-Headers"]?.contains("Retry-After") == true)
        let refused = await harness.client.post(
            "/oauth/token",
            json: ["grant_type": "refresh_token", "client_id": "nobody", "refresh_token": "x"] as JSONValue,
            headers: ["Origin": Self.page])
        #expect(refused.status == 401)
        #expect(refused.headers["Access-Control-Allow-Origin"] == Self.page)
        let userinfo = await harness.client.get("/userinfo", headers: ["Origin": Self.page])
        #expect(userinfo.status == 401)
        #expect(userinfo.headers["Access-Control-Allow-Origin"] == Self.page)
        #expect(userinfo.headers["Access-Control-Expose-Headers"]?.contains("WWW-Authenticate") == true)
        // Answered (CORS protects reading, not sending), but unreadable; the passkey endpoints refuse an Origin the
        // client does not accept outright.
        let foreign = await harness.client.post(
            "/oauth/token",
            json: ["grant_type": "refresh_token", "client_id": "app", "refresh_token": "x"] as JSONValue,
            headers: ["Origin": "https://evil.example"])
        #expect(foreign.status == 403)
        #expect(foreign.headers["Access-Control-Allow-Origin"] == nil)
        #expect(foreign.headers["Vary"]?.contains("Origin") == true)
    }

    @Test("a 429 from the rate limit reaches a web app with its Retry-After readable")
    func rateLimited() async throws {
        let harness = try PasskeyHarness(["PASSKEYD_RATE_LIMIT_REQUESTS_PER_MINUTE": "1"])
        _ = await harness.client.post(
            "/passkey/challenge", json: ["client_id": "app"] as JSONValue, headers: ["Origin": Self.page])
        let limited = await harness.client.post(
            "/passkey/challenge", json: ["client_id": "app"] as JSONValue, headers: ["Origin": Self.page])
        #expect(limited.status == 429)
        #expect(limited.headers["Retry-After"] != nil)
        #expect(limited.headers["Access-Control-Allow-Origin"] == Self.page)
    }

    @Test("the discovery document and the JWKS are readable from any origin")
    func publicDocuments() async throws {
        let harness = try PasskeyHarness()
        for path in ["/.well-known/openid-configuration", "/.well-known/jwks.json"] {
            let response = await harness.client.get(path, headers: ["Origin": "https://anyone.test"])
            #expect(response.status == 200, "\(path)")
            #expect(response.headers["Access-Control-Allow-Origin"] == "*", "\(path)")
            let preflight = await Self.preflight(harness, path, origin: "https://anyone.test", method: "GET")
            #expect(preflight.status == 204, "\(path)")
            #expect(preflight.headers["Access-Control-Allow-Origin"] == "*", "\(path)")
            #expect(preflight.headers["Vary"] == nil, "\(path)")
        }
    }
}
