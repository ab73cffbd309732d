import Crypto
import Foundation
import HTTP
import JSON
import TestSupport
import Testing

@testable import Endpoints
@testable import Service

/// Auth0's My Account API for passkeys, driven with the bodies Auth0's SDKs send and checked for the members their
/// decoders require:
/// - Auth0.swift `Auth0/MyAccount/AuthenticationMethods/Auth0MyAccountAuthenticationMethods.swift` (the requests),
///   `PasskeyEnrollmentChallenge.swift` (the `Location` parse), `PasskeyAuthenticationMethod.swift` and
///   `GetAuthenticationMethodsResponse.swift` (the decoders), `Auth0/PublicKeyCredentialCreationOptions.swift`;
/// - Auth0.Android `myaccount/MyAccountAPIClient.kt` (the requests, the `Location` parse),
///   `result/PasskeyRegistrationChallenge.kt` and `result/AuthenticationMethod.kt` (the decoders);
/// - auth0/myaccount-js `src/api/types/AuthenticationMethodPasskey.ts`, `AuthenticationMethodBase.ts`.
@Suite("My Account API: a passkey enrolled, listed, read and removed as Auth0's SDKs do it")
struct MyAccountAuthenticationMethodsTests {
    /// The SDKs take the method id from the `Location` header's last path segment, percent-decoded.
    static func methodID(location: String?) throws -> String {
        let segment = try #require(location?.split(separator: "/").last)
        return try #require(String(segment).removingPercentEncoding)
    }

    /// `authn_response` as Auth0.swift's `enroll(passkey:challenge:)` builds it: id, rawId, type, the two response
    /// members and `authenticatorAttachment`; nothing else.
    static func swiftAuthnResponse(_ made: JSONValue) throws -> JSONValue {
        let response = try #require(made["response"])
        return [
            "id": try #require(made["id"]), "rawId": try #require(made["rawId"]), "type": "public-key",
            "response": [
                "clientDataJSON": try #require(response["clientDataJSON"]),
                "attestationObject": try #require(response["attestationObject"]),
            ],
            "authenticatorAttachment": "platform",
        ]
    }

    /// `authn_response` as Auth0.Android's `enroll(credentials, challenge)` builds it (with
    /// `clientExtensionResults` and `authenticatorAttachment: "platform"`).
    static func androidAuthnResponse(_ made: JSONValue) throws -> JSONValue {
        let response = try #require(made["response"])
        return [
            "authenticatorAttachment": "platform", "clientExtensionResults": ["credProps": ["rk": true]],
            "id": try #require(made["id"]), "rawId": try #require(made["rawId"]), "type": "public-key",
            "response": [
                "clientDataJSON": try #require(response["clientDataJSON"]),
                "attestationObject": try #require(response["attestationObject"]),
            ],
        ]
    }

    /// The members Auth0.swift's `PasskeyAuthenticationMethod` decoder requires, in the formats it parses, plus
    /// `usage` (Android's and myaccount-js's base type).
    static func expectSDKDecodable(_ method: JSONValue, passkey: Passkey, userID: String) throws {
        #expect(method["type"]?.stringValue == "passkey")
        #expect(method["id"]?.stringValue == "passkey|" + Base64URL.encode(passkey.credentialID))
        #expect(method["identity_user_id"]?.stringValue == userID)
        #expect(method["usage"] == ["primary"])
        // `ISO8601DateFormatter` with `.withFractionalSeconds`: no fraction, no method.
        let createdAt = try #require(method["created_at"]?.stringValue)
        #expect(createdAt.contains("."))
        #expect((try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(createdAt)) != nil)
        #expect(method["key_id"]?.stringValue == Base64URL.encode(passkey.credentialID))
        // `public_key` base64 (`Data(base64Encoded:)`), `user_handle` base64url.
        let publicKey = try #require(method["public_key"]?.stringValue)
        #expect(Data(base64Encoded: publicKey)?.isEmpty == false)
        #expect(method["user_handle"]?.stringValue.flatMap { Base64URL.decode($0) } == passkey.userHandle)
        #expect(["single_device", "multi_device"].contains(method["credential_device_type"]?.stringValue ?? ""))
        #expect(method["credential_backed_up"]?.boolValue != nil)
        #expect(method["aaguid"]?.stringValue?.count == 36)
        #expect(method["relying_party_id"]?.stringValue == "example.com")
    }

    @Test("Auth0.swift: enrol (202, Location, options), verify, list, get and delete a second passkey; 404 after")
    func swiftEnrolment() async throws {
        let harness = try PasskeyHarness()
        var first = Passkey()
        let login = try await harness.signUpForMyAccount(&first)
        // The account API's scopes are granted to the client without a client grant.
        for scope in PasskeyHarness.authenticationMethodScopes { #expect(login.scope.contains(scope)) }
        let auth = PasskeyHarness.bearer(login.token)
        // passkeyEnrollmentChallenge(userIdentityId: nil, connection: nil) sends {"type": "passkey"}.
        let started = await harness.client.post(PasskeyHarness.methodsPath, json: ["type": "passkey"], headers: auth)
        #expect(started.status == 202, "\(started.bodyText)")
        let location = started.headers["Location"]
        #expect(location == "https://auth.example.com/me/v1/authentication-methods/passkey%7Cnew")
        let methodID = try Self.methodID(location: location)
        let challenge = try started.jsonValue()
        let session = try #require(challenge["auth_session"]?.stringValue)
        let options = try #require(challenge["authn_params_public_key"])
        // Auth0.swift's PublicKeyCredentialCreationOptions: rp.id, user.id (base64url), user.name, challenge
        // (base64url); Android's AuthnParamsPublicKey also authenticatorSelection, pubKeyCredParams, timeout.
        #expect(options["rp"]?["id"]?.stringValue == "example.com")
        #expect(options["user"]?["id"]?.stringValue.flatMap { Base64URL.decode($0) } == first.userHandle)
        #expect(options["user"]?["name"]?.stringValue == "alice@example.com")
        #expect(options["user"]?["displayName"]?.stringValue != nil)
        #expect(options["challenge"]?.stringValue.flatMap { Base64URL.decode($0) }?.count == 32)
        #expect(options["authenticatorSelection"]?["residentKey"]?.stringValue != nil)
        #expect(options["pubKeyCredParams"]?.arrayValue?.isEmpty == false)
        #expect(options["timeout"] != nil)

        var second = Passkey()
        let made = try second.register(options)
        let verified = await harness.client.post(
            PasskeyHarness.methodPath(methodID) + "/verify",
            json: ["auth_session": .string(session), "authn_response": try Self.swiftAuthnResponse(made)],
            headers: auth)
        #expect(verified.status == 200, "\(verified.bodyText)")
        let method = try verified.jsonValue()
        try Self.expectSDKDecodable(method, passkey: second, userID: login.userID)
        #expect(harness.counted("passkey_added"))

        // getAuthenticationMethods(): {authentication_methods: [...]}, each with id, type, created_at, usage.
        let listed = try await harness.client.get(PasskeyHarness.methodsPath, headers: auth).jsonValue()
        let methods = try #require(listed["authentication_methods"]?.arrayValue)
        #expect(methods.count == 2)
        for entry in methods {
            try Self.expectSDKDecodable(entry, passkey: entry == method ? second : first, userID: login.userID)
        }
        let filtered = await harness.client.get(PasskeyHarness.methodsPath + "?type=passkey", headers: auth)
        #expect(try filtered.jsonValue()["authentication_methods"]?.arrayValue?.count == 2)
        let otherType = await harness.client.get(PasskeyHarness.methodsPath + "?type=totp", headers: auth)
        #expect(try otherType.jsonValue()["authentication_methods"]?.arrayValue?.isEmpty == true)

        let id = try #require(method["id"]?.stringValue)
        let read = await harness.client.get(PasskeyHarness.methodPath(id), headers: auth)
        #expect(read.status == 200)
        #expect(try read.jsonValue() == method)
        let deleted = await harness.client.delete(PasskeyHarness.methodPath(id), headers: auth)
        #expect(deleted.status == 204, "\(deleted.bodyText)")
        #expect(await harness.client.get(PasskeyHarness.methodPath(id), headers: auth).status == 404)
        // One implementation: /me/passkeys sees the same rows.
        let passkeys = try await harness.client.get("/me/passkeys", headers: auth).jsonValue()["passkeys"]
        #expect(passkeys?.arrayValue?.map { $0["id"]?.stringValue } == [Base64URL.encode(first.credentialID)])
    }

    @Test(
        "Auth0.Android: connection and identity_user_id of the user, then its verify body with clientExtensionResults")
    func androidEnrolment() async throws {
        let harness = try PasskeyHarness()
        var first = Passkey()
        let login = try await harness.signUpForMyAccount(&first)
        let auth = PasskeyHarness.bearer(login.token)
        let started = await harness.client.post(
            PasskeyHarness.methodsPath,
            json: ["type": "passkey", "connection": "main", "identity_user_id": .string(login.userID)], headers: auth)
        #expect(started.status == 202, "\(started.bodyText)")
        let methodID = try Self.methodID(location: started.headers["Location"])
        #expect(methodID == "passkey|new")
        let challenge = try started.jsonValue()
        var second = Passkey()
        let made = try second.register(try #require(challenge["authn_params_public_key"]))
        let verified = await harness.client.post(
            PasskeyHarness.methodPath(methodID) + "/verify",
            json: [
                "auth_session": try #require(challenge["auth_session"]),
                "authn_response": try Self.androidAuthnResponse(made),
            ], headers: auth)
        #expect(verified.status == 200, "\(verified.bodyText)")
        try Self.expectSDKDecodable(try verified.jsonValue(), passkey: second, userID: login.userID)
    }

    @Test("a DPoP-bound token with its proof lists the methods")
    func dpop() async throws {
        let harness = try PasskeyHarness()
        var passkey = Passkey()
        let login = try await harness.signUpForMyAccount(&passkey)
        let prover = try DPoPProver()
        let token = try await harness.myAccountToken(
            userID: login.userID, scope: ["read:me:authentication_methods"], boundTo: prover)
        let listed = await harness.client.get(
            PasskeyHarness.methodsPath,
            headers: try harness.dpopHeaders("GET", PasskeyHarness.methodsPath, token: token, prover: prover))
        #expect(listed.status == 200, "\(listed.bodyText)")
        #expect(try listed.jsonValue()["authentication_methods"]?.arrayValue?.count == 1)
    }
}
