import Crypto
import Foundation
import HTTP
import JSON
import Storage
import TestSupport
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("POST /passkey/register and /passkey/challenge")
struct PasskeyEndpointsTests {
    @Test("register answers Auth0's creation options and a sealed auth_session; nothing is stored")
    func registerShape() async throws {
        let harness = try PasskeyHarness()
        let response = await harness.post(
            "/passkey/register", ["client_id": "app", "user_profile": ["email": "Alice@Example.COM", "name": "Alice"]])
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "application/json")
        #expect(response.headers["Cache-Control"] == "no-store")
        let body = try response.jsonValue()
        #expect(body.objectMembers?.map(\.key) == ["authn_params_public_key", "auth_session"])
        let options = try #require(body["authn_params_public_key"])
        #expect(Base64URL.decode(try #require(options["challenge"]?.stringValue))?.count == 32)
        #expect(options["timeout"]?.intValue == 60_000)
        #expect(options["rp"] == ["id": "example.com", "name": "Example"])
        let user = try #require(options["user"])
        #expect(Base64URL.decode(try #require(user["id"]?.stringValue))?.count == 32)
        #expect(user["name"]?.stringValue == "alice@example.com")
        #expect(user["displayName"]?.stringValue == "Alice")
        #expect(options["pubKeyCredParams"]?.arrayValue?.compactMap { $0["alg"]?.intValue } == [-8, -7, -257])
        #expect(options["pubKeyCredParams"]?.arrayValue?.allSatisfy { $0["type"]?.stringValue == "public-key" } == true)
        #expect(options["authenticatorSelection"] == ["residentKey": "required", "userVerification": "required"])
        let session = try #require(body["auth_session"]?.stringValue)
        // The session is sealed in the value (nothing stored), and opens to the ceremony's.
        let stored = try #require(try harness.context.authSessionKey.sealer().open(session))
        #expect(stored.kind == .signup)
        #expect(stored.email == "alice@example.com")
        #expect(stored.name == "Alice")
        #expect(stored.challenge == Base64URL.decode(try #require(options["challenge"]?.stringValue)))
        // The WebAuthn timeout plus the grace period (passkeys.auth_session_grace_seconds).
        #expect(stored.expiresAt == harness.clock.now().addingTimeInterval(60 + 30))
        // Opaque: no profile text in the value, and nothing stored under it or its id.
        #expect(
            !session.contains("alice")
                && !(String(bytes: Base64URL.decode(session) ?? [], encoding: .utf8)?.contains("alice") ?? false))
        #expect(try await harness.context.store.read { try $0.authSession(id: session) } == nil)
        #expect(try await harness.context.store.read { try $0.authSession(id: stored.id) } == nil)
    }

    @Test("displayName falls back to the identifier")
    func displayNameFallback() async throws {
        let harness = try PasskeyHarness()
        let body = try await harness.registerChallenge(email: "bob@example.com").jsonValue()
        #expect(body["authn_params_public_key"]?["user"]?["displayName"]?.stringValue == "bob@example.com")
    }

    @Test("valid JSON sent without a usable Content-Type is refused naming Content-Type, not as malformed")
    func contentType() async throws {
        let harness = try PasskeyHarness()
        let json = Array(#"{"client_id":"app"}"#.utf8)
        for (path, contentType) in [
            ("/passkey/challenge", "text/plain"), ("/passkey/challenge", "application/octet-stream"),
            ("/passkey/register", "text/plain; charset=utf-8"), ("/oauth/token", "text/plain"),
            ("/passkey/challenge", "application/json; charset=latin1"),
        ] {
            let response = await harness.client.post(path, body: json, contentType: contentType)
            #expect(response.status == 400, "\(path) \(contentType)")
            #expect(response.errorCode == "invalid_request")
            let description = try response.jsonValue()["error_description"]?.stringValue
            #expect(description == ErrorMapping.unsupportedMediaTypeDescription, "\(path) \(contentType)")
        }
        let missing = await harness.client.execute(.post, "/passkey/challenge", headers: HTTPHeaders(), body: json)
        let missingDescription = try missing.jsonValue()["error_description"]?.stringValue
        #expect(missingDescription == ErrorMapping.unsupportedMediaTypeDescription)
        // A JSON Content-Type with a broken body is still "malformed".
        let broken = await harness.client.post(
            "/passkey/challenge", body: Array("{".utf8), contentType: "application/json")
        #expect(try broken.jsonValue()["error_description"]?.stringValue == "The request body is malformed.")
    }

    @Test("challenge answers the request options and an auth_session")
    func challengeShape() async throws {
        let harness = try PasskeyHarness()
        let response = await harness.loginChallenge()
        #expect(response.status == 200)
        let body = try response.jsonValue()
        let options = try #require(body["authn_params_public_key"])
        #expect(options.objectMembers?.map(\.key) == ["challenge", "timeout", "rpId", "userVerification"])
        #expect(options["rpId"]?.stringValue == "example.com")
        #expect(options["userVerification"]?.stringValue == "required")
        // Sealed (nothing stored), compact: the login session of this client and realm.
        let session = try #require(body["auth_session"]?.stringValue)
        #expect(session.count < 160, "\(session.count) characters")
        let opened = try #require(try harness.context.authSessionKey.sealer().open(session))
        #expect(opened.kind == .login && opened.clientID == "app" && opened.realm == "main")
        #expect(opened.challenge == Base64URL.decode(try #require(options["challenge"]?.stringValue)))
    }

    @Test("a realm with phone numbers and usernames normalises both")
    func phoneRealm() async throws {
        let harness = try PasskeyHarness()
        let response = await harness.post(
            "/passkey/register",
            [
                "client_id": "app", "realm": "phones",
                "user_profile": ["phone_number": "+33 6 12-34-56-78", "username": "Zed_99"],
            ])
        #expect(response.status == 200, "\(response.bodyText)")
        #expect(try response.jsonValue()["authn_params_public_key"]?["user"]?["name"]?.stringValue == "+33612345678")
    }

    @Test(
        "refusals of /passkey/register",
        arguments: [
            (
                #"{"client_id":"app","user_profile":{"email":"a@example.com","favourite_colour":"x"}}"#, 400,
                "invalid_request"
            ),
            (#"{"client_id":"app","user_profile":{"name":"Alice"}}"#, 400, "invalid_request"),
            (#"{"client_id":"app","user_profile":{"email":"not-an-email"}}"#, 400, "invalid_request"),
            (
                #"{"client_id":"app","user_profile":{"email":"a@example.com","phone_number":"+33612345678"}}"#, 400,
                "invalid_request"
            ),
            (#"{"client_id":"app","user_profile":{"email":42}}"#, 400, "invalid_request"),
            (
                #"{"client_id":"app","realm":"phones","user_profile":{"phone_number":"0612345678"}}"#, 400,
                "invalid_request"
            ),
            (
                #"{"client_id":"app","realm":"phones","user_profile":{"phone_number":"+33612345678","username":"a b"}}"#,
                400, "invalid_request"
            ),
            (#"{"client_id":"app","realm":"nope","user_profile":{"email":"a@example.com"}}"#, 400, "invalid_request"),
            (#"{"client_id":"app"}"#, 400, "invalid_request"),
            (#"{"user_profile":{"email":"a@example.com"}}"#, 400, "invalid_request"),
            (#"{"client_id":"ghost","user_profile":{"email":"a@example.com"}}"#, 401, "invalid_client"),
            // Auth0 documents 400 for unauthorized_client at the passkey endpoints.
            (#"{"client_id":"refresh-only","user_profile":{"email":"a@example.com"}}"#, 400, "unauthorized_client"),
            (#"{"client_id":"app","user_profile":"#, 400, "invalid_request"),
        ])
    func registerRefusals(body: String, status: Int, error: String) async throws {
        let harness = try PasskeyHarness()
        let response = await harness.client.post(
            "/passkey/register", body: Array(body.utf8), contentType: "application/json")
        #expect(response.status == status)
        #expect(response.errorCode == error)
        #expect(try response.jsonValue()["error_description"]?.stringValue?.isEmpty == false)
    }

    @Test(
        "refusals of /passkey/challenge",
        arguments: [
            (#"{}"#, 400, "invalid_request"),
            (#"{"client_id":"ghost"}"#, 401, "invalid_client"),
            (#"{"client_id":"refresh-only"}"#, 400, "unauthorized_client"),
            (#"{"client_id":"app","realm":"nope"}"#, 400, "invalid_request"),
        ])
    func challengeRefusals(body: String, status: Int, error: String) async throws {
        let harness = try PasskeyHarness()
        let response = await harness.client.post(
            "/passkey/challenge", body: Array(body.utf8), contentType: "application/json")
        #expect(response.status == status)
        #expect(response.errorCode == error)
    }

    @Test("an identifier that already belongs to a user is refused, whatever its case")
    func existingIdentifier() async throws {
        let harness = try PasskeyHarness()
        var authenticator = Passkey()
        _ = try await harness.signUp(&authenticator, email: "alice@example.com")
        let response = await harness.registerChallenge(email: "ALICE@example.com")
        #expect(response.status == 400)
        #expect(response.errorCode == "invalid_request")
    }

    @Test("over the per-IP limit: 429 too_many_requests with Retry-After; another IP is not affected")
    func rateLimit() async throws {
        let harness = try PasskeyHarness(["PASSKEYD_RATE_LIMIT_REQUESTS_PER_MINUTE": "3"])
        for _ in 0..<3 { #expect(await harness.loginChallenge().status == 200) }
        let limited = await harness.loginChallenge()
        #expect(limited.status == 429)
        #expect(limited.errorCode == "too_many_requests")
        let retryAfter = try #require(limited.headers["Retry-After"].flatMap { Int($0) })
        #expect((1...60).contains(retryAfter))
        var other = harness.client
        other.remoteAddress = "192.0.2.7"
        #expect(await other.post("/passkey/challenge", json: ["client_id": "app"] as JSONValue).status == 200)
        #expect(harness.counted("too_many_requests:rate_limited"))
    }
}
