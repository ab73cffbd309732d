import Crypto
import Foundation
import HTTP
import JSON
import SoftwareClient
import Storage
import TestSupport
import Testing
import Tokens

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("POST /oauth/token, webauthn grant")
struct WebAuthnGrantTests {
    /// Verifies `token` against the server's JWKS.
    static func verify(_ token: String, type: String, audience: String, harness: PasskeyHarness) async throws
        -> VerifiedJWT
    {
        let jwks = try await harness.client.get("/.well-known/jwks.json").jsonValue()
        var keys: [String: JWTVerificationKey] = [:]
        for key in try #require(jwks["keys"]?.arrayValue) {
            func member(_ name: String) throws -> [UInt8] {
                try #require(key[name]?.stringValue.flatMap { Base64URL.decode($0) })
            }
            let kid = try #require(key["kid"]?.stringValue)
            keys[kid] =
                key["kty"]?.stringValue == "RSA"
                ? .rs256(try RSAPublicKey(modulus: try member("n"), exponent: try member("e")))
                : .es256(try ECPublicKey(curve: .p256, x: try member("x"), y: try member("y")))
        }
        return try JWTVerifier(keys: keys).verify(
            token,
            expecting: JWTExpectations(
                type: type, issuer: "https://auth.example.com/", audience: audience, now: harness.clock.now()))
    }

    static func claims(_ token: VerifiedJWT) throws -> JSONValue { try JSONValue(parsing: token.rawPayload) }

    @Test("sign-up creates the user and the credential and answers access, ID and refresh tokens")
    func signUp() async throws {
        let harness = try PasskeyHarness()
        var authenticator = Passkey()
        let body = try await harness.signUp(&authenticator, email: "Alice@Example.com")
        #expect(
            body.objectMembers?.map(\.key) == [
                "access_token", "id_token", "refresh_token", "scope", "expires_in", "token_type",
            ])
        #expect(body["token_type"]?.stringValue == "Bearer")
        #expect(body["expires_in"]?.intValue == 3600)
        #expect(body["scope"]?.stringValue == "openid profile email offline_access")
        let access = try await Self.verify(
            try #require(body["access_token"]?.stringValue), type: "at+jwt", audience: "https://auth.example.com/",
            harness: harness)
        let accessClaims = try Self.claims(access)
        #expect(accessClaims["client_id"]?.stringValue == "app")
        #expect(accessClaims["amr"] == ["hwk", "user"])
        #expect(accessClaims["auth_time"]?.intValue == 1_800_000_000)
        #expect(accessClaims["jti"]?.stringValue?.isEmpty == false)
        let id = try await Self.verify(
            try #require(body["id_token"]?.stringValue), type: "JWT", audience: "app", harness: harness)
        let idClaims = try Self.claims(id)
        #expect(idClaims["email"]?.stringValue == "alice@example.com")
        #expect(idClaims["sub"] == accessClaims["sub"])
        let sub = try #require(access.subject)
        let user = try #require(try await harness.context.store.read { try $0.user(id: sub) })
        #expect(user.email == "alice@example.com")
        #expect(user.userHandle == authenticator.userHandle)
        #expect(user.userHandle.count == 32)
        let credentialID = authenticator.credentialID
        let credential = try #require(try await harness.context.store.read { try $0.credential(id: credentialID) })
        #expect(credential.userID == sub)
        #expect(credential.algorithm == -7)
        #expect(credential.transports == authenticator.authenticator.transports)
        let refresh = try #require(body["refresh_token"]?.stringValue)
        let hash = try Tokens.RefreshToken(presented: refresh).hash
        #expect(try await harness.context.store.read { try $0.refreshToken(hash: hash) }?.userID == sub)
    }

    @Test("sign-up and login with each algorithm", arguments: CredentialAlgorithm.allCases)
    func loginPerAlgorithm(algorithm: CredentialAlgorithm) async throws {
        let harness = try PasskeyHarness()
        var authenticator = Passkey(algorithm)
        _ = try await harness.signUp(&authenticator)
        let response = try await harness.logIn(&authenticator)
        #expect(response.status == 200, "\(response.bodyText)")
        let credentialID = authenticator.credentialID
        let stored = try #require(try await harness.context.store.read { try $0.credential(id: credentialID) })
        #expect(stored.signCount == 1)
        #expect(stored.lastUsedAt == harness.clock.now())
        #expect(harness.counted("login"))
    }

    @Test("scope decides the ID token and the refresh token")
    func scopeDecides() async throws {
        let harness = try PasskeyHarness()
        var authenticator = Passkey()
        _ = try await harness.signUp(&authenticator)
        let (options, session) = try await harness.loginOptions()
        let response = await harness.token(
            session: session, response: try authenticator.assert(options), scope: "profile")
        let body = try response.jsonValue()
        #expect(body.objectMembers?.map(\.key) == ["access_token", "scope", "expires_in", "token_type"])
    }

    @Test("a form-encoded token request carries authn_response as JSON text")
    func formBody() async throws {
        let harness = try PasskeyHarness()
        var authenticator = Passkey()
        _ = try await harness.signUp(&authenticator)
        let (options, session) = try await harness.loginOptions()
        let assertion = String(decoding: try authenticator.assert(options).serialized(), as: UTF8.self)
        let response = await harness.client.post(
            "/oauth/token",
            form: [
                ("grant_type", "urn:okta:params:oauth:grant-type:webauthn"), ("client_id", "app"),
                ("auth_session", session), ("authn_response", assertion), ("scope", "openid"),
            ])
        #expect(response.status == 200, "\(response.bodyText)")
        #expect(try response.jsonValue()["id_token"] != nil)
    }

    @Test("a null or missing userHandle is accepted (the credential names its user)", arguments: [true, false])
    func nullUserHandle(explicitNull: Bool) async throws {
        let harness = try PasskeyHarness()
        var authenticator = Passkey()
        _ = try await harness.signUp(&authenticator)
        let (options, session) = try await harness.loginOptions()
        var assertion = try authenticator.assert(options, CeremonyTampering(omitsUserHandle: true))
        if explicitNull, var members = assertion.objectMembers,
            let index = members.firstIndex(where: { $0.key == "response" })
        {
            // `"userHandle": null`, as some platforms send it, rather than no member at all.
            let response = members[index].value.objectMembers ?? []
            members[index].value = .object(response + [JSONMember(key: "userHandle", value: .null)])
            assertion = .object(members)
        }
        let response = await harness.token(session: session, response: assertion)
        #expect(response.status == 200)
    }

    @Test("an Android apk-key-hash origin is accepted for the configured fingerprint and refused for another")
    func androidOrigin() async throws {
        let harness = try PasskeyHarness()
        var authenticator = Passkey()
        authenticator.origin = PasskeyHarness.androidOrigin
        _ = try await harness.signUp(&authenticator)
        #expect(try await harness.logIn(&authenticator).status == 200)
        authenticator.origin = "android:apk-key-hash:" + Base64URL.encode([UInt8](repeating: 0xCD, count: 32))
        #expect(try await harness.logIn(&authenticator).status == 403)
    }

    @Test("a credential of another realm's user is refused; a realm parameter must match the session")
    func realms() async throws {
        let harness = try PasskeyHarness()
        var authenticator = Passkey()
        let challenge = try await harness.post(
            "/passkey/register",
            ["client_id": "app", "realm": "phones", "user_profile": ["phone_number": "+14155550100"]]
        ).jsonValue()
        let signup = await harness.token(
            session: try #require(challenge["auth_session"]?.stringValue),
            response: try authenticator.register(try #require(challenge["authn_params_public_key"])))
        #expect(signup.status == 200)
        let (options, session) = try await harness.loginOptions()
        #expect(await harness.token(session: session, response: try authenticator.assert(options)).status == 403)
        #expect(harness.counted("webauthn_failure:realm_mismatch"))
        let phones = try await harness.post("/passkey/challenge", ["client_id": "app", "realm": "phones"]).jsonValue()
        let response = await harness.post(
            "/oauth/token",
            [
                "grant_type": "urn:okta:params:oauth:grant-type:webauthn", "client_id": "app", "realm": "main",
                "auth_session": .string(try #require(phones["auth_session"]?.stringValue)),
                "authn_response": try authenticator.assert(try #require(phones["authn_params_public_key"])),
            ])
        #expect(response.status == 403)
        #expect(harness.counted("invalid_grant:session_other_realm"))
    }

    @Test("without scope: openid profile email; with audience and openid, aud names both")
    func defaultScopeAndAudience() async throws {
        let harness = try PasskeyHarness([
            "PASSKEYD_APIS": #"[{"identifier": "https://api.example.com"}]"#,
            "PASSKEYD_CLIENT_GRANTS": #"[{"client_id": "app", "audience": "https://api.example.com"}]"#,
        ])
        var authenticator = Passkey()
        _ = try await harness.signUp(&authenticator)
        let (options, session) = try await harness.loginOptions()
        let plain = try await harness.token(session: session, response: authenticator.assert(options), scope: nil)
            .jsonValue()
        #expect(plain["scope"]?.stringValue == "openid profile email")
        #expect(plain["id_token"] != nil)
        #expect(plain["refresh_token"] == nil)
        let (again, second) = try await harness.loginOptions()
        let withAudience = try await harness.post(
            "/oauth/token",
            [
                "grant_type": "urn:okta:params:oauth:grant-type:webauthn", "client_id": "app",
                "auth_session": .string(second), "authn_response": try authenticator.assert(again),
                "audience": "https://api.example.com", "scope": "openid",
            ]
        ).jsonValue()
        let token = try await Self.verify(
            try #require(withAudience["access_token"]?.stringValue), type: "at+jwt",
            audience: "https://api.example.com", harness: harness)
        #expect(token.audience == ["https://api.example.com", "https://auth.example.com/"])
    }

}
