import Crypto
import Foundation
import HTTP
import JSON
import Storage
import TestSupport
import Testing

@testable import Endpoints
@testable import Service

/// `user_metadata` of `POST /passkey/register` where Auth0's SDKs send it, at the top level of the body:
/// Auth0.swift's `passkeySignupChallenge` (Auth0/Auth0Authentication.swift: `payload["user_metadata"] =
/// userMetadata`, a `[String: String]`, beside `client_id` and `user_profile`) and Auth0.Android's
/// `signupWithPasskey` (AuthenticationAPIClient.kt: `USER_METADATA_KEY`, a `Map<String, String>`). Auth0's rules:
/// at most 10 properties, names of at most 100 characters, string values of at most 500 (its Authentication API
/// reference for `/dbconnections/signup` and `/passkey/register`); `user_profile` takes no `user_metadata`.
@Suite("POST /passkey/register: top-level user_metadata")
struct UserMetadataTests {
    static let claim = "https://example.com/user_metadata"

    static func harness() throws -> PasskeyHarness {
        try PasskeyHarness(["PASSKEYD_TOKENS_USER_METADATA_CLAIM": claim])
    }

    /// The body Auth0.swift sends (`passkeySignupChallenge(email:name:userMetadata:connection:)`), with `metadata`.
    static func register(_ harness: PasskeyHarness, _ metadata: JSONValue) async -> Response {
        await harness.post(
            "/passkey/register",
            .object([
                JSONMember(key: "client_id", value: "app"),
                JSONMember(key: "user_profile", value: ["email": "alice@example.com", "name": "Alice"]),
                JSONMember(key: "realm", value: "main"),
                JSONMember(key: "user_metadata", value: metadata),
            ]))
    }

    @Test("stored at sign-up and returned under the namespaced claim in the ID token and at /userinfo")
    func storedAndReturned() async throws {
        let harness = try Self.harness()
        let challenge = await Self.register(harness, ["signup_source": "ios_app", "plan": "pro"])
        #expect(challenge.status == 200, "\(challenge.bodyText)")
        let body = try challenge.jsonValue()
        var authenticator = Passkey()
        let token = await harness.token(
            session: try #require(body["auth_session"]?.stringValue),
            response: try authenticator.register(try #require(body["authn_params_public_key"])),
            scope: "openid profile email")
        #expect(token.status == 200, "\(token.bodyText)")
        let tokens = try token.jsonValue()
        let idToken = try #require(tokens["id_token"]?.stringValue)
        let claims = try JSONValue(parsing: try #require(Base64URL.decode(String(idToken.split(separator: ".")[1]))))
        #expect(claims[Self.claim] == ["plan": "pro", "signup_source": "ios_app"])
        let access = try #require(tokens["access_token"]?.stringValue)
        let userinfo = try await harness.client.get("/userinfo", headers: ["Authorization": "Bearer \(access)"])
            .jsonValue()
        #expect(userinfo[Self.claim]?["signup_source"]?.stringValue == "ios_app")
        let stored = try await harness.context.store.read {
            try $0.user(realm: "main", identifier: .email("alice@example.com"))
        }
        #expect(stored?.profile.userMetadata == #"{"plan":"pro","signup_source":"ios_app"}"#)
    }

    @Test("at Auth0's limits it is accepted: 10 properties, 100-character names, 500-character values")
    func limits() async throws {
        let harness = try Self.harness()
        var members = (1...9).map { JSONMember(key: "key\($0)", value: "v") }
        members.append(
            JSONMember(key: String(repeating: "n", count: 100), value: .string(String(repeating: "é", count: 500))))
        let response = await Self.register(harness, .object(members))
        #expect(response.status == 200, "\(response.bodyText)")
    }

    @Test("beyond Auth0's rules it is refused with 400 invalid_request naming user_metadata")
    func refusals() async throws {
        let harness = try Self.harness()
        let eleven = JSONValue.object((1...11).map { JSONMember(key: "key\($0)", value: "v") })
        for metadata: JSONValue in [
            .string("not an object"), ["plan": ["tier": "gold"]], ["count": 3], ["flag": true], ["list": ["a"]],
            eleven, .object([JSONMember(key: String(repeating: "n", count: 101), value: "v")]),
            ["long": .string(String(repeating: "x", count: 501))], ["a.b": "v"], ["$set": "v"], ["": "v"],
        ] {
            let response = await Self.register(harness, metadata)
            #expect(response.status == 400, "\(metadata)")
            #expect(response.errorCode == "invalid_request")
            let description = try response.jsonValue()["error_description"]?.stringValue ?? ""
            #expect(description.hasPrefix("Invalid parameter: user_metadata"), "\(metadata): \(description)")
        }
        // null is no metadata.
        #expect(await Self.register(harness, .null).status == 200)
    }

    @Test("inside user_profile it is refused, as Auth0 refuses members user_profile does not define, naming the field")
    func refusedInProfile() async throws {
        let harness = try Self.harness()
        let response = await harness.post(
            "/passkey/register",
            [
                "client_id": "app",
                "user_profile": ["email": "alice@example.com", "user_metadata": ["signup_source": "ios_app"]],
            ])
        #expect(response.status == 400)
        #expect(response.errorCode == "invalid_request")
        let description = try response.jsonValue()["error_description"]?.stringValue
        #expect(
            description
                == "Invalid parameter: user_profile.user_metadata (send user_metadata at the top level of the request)")
    }

    @Test("metadata stored before these rules (nested, numbers) is still returned as stored")
    func storedBeforeStaysReadable() throws {
        let user = User(
            id: "u1", userHandle: [1], realm: "main", email: "old@example.com", createdAt: Date(),
            profile: ProfileAttributes(userMetadata: #"{"plan":"gold","prefs":{"lang":"fr"},"seats":3}"#))
        let claims = UserClaims(user: user, scope: ["openid", "profile"], metadataClaim: Self.claim)
        let released = JSONValue.object(claims.members)
        #expect(released[Self.claim] == ["plan": "gold", "prefs": ["lang": "fr"], "seats": 3])
    }
}
