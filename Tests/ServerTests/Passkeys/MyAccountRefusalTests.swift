import Crypto
import Foundation
import HTTP
import JSON
import TestSupport
import Testing

@testable import Endpoints
@testable import Service

/// The My Account API's refusals: RFC 9457 problem details with the members Auth0.swift's `MyAccountError`
/// (`Auth0/MyAccount/MyAccountError.swift`: `type`, `title`, `detail`, `validation_errors`), Auth0.Android's
/// `MyAccountException` and myaccount-js's `ErrorResponse` (`src/api/types/ErrorResponse.ts`, `ValidationError.ts`)
/// read; each scope for its routes; the account audience only; another user's passkeys not found.
@Suite("My Account API: scopes, audience, fresh login and problem details")
struct MyAccountRefusalTests {
    /// The problem document of `response`, after checking its media type and the members every SDK reads.
    static func problem(_ response: Response, status: Int, type: String) throws -> JSONValue {
        #expect(response.status == status, "\(response.bodyText)")
        #expect(response.headers["Content-Type"] == "application/problem+json")
        let body = try response.jsonValue()
        #expect(body["type"]?.stringValue == type)
        #expect(body["status"] == .number(String(status)))
        #expect(body["title"]?.stringValue?.isEmpty == false)
        #expect(body["detail"]?.stringValue?.isEmpty == false)
        return body
    }

    @Test("each route needs its scope: 403 insufficient_scope naming it, RFC 6750 §3.1; nothing is enrolled or removed")
    func scopes() async throws {
        let harness = try PasskeyHarness()
        var passkey = Passkey()
        let login = try await harness.signUpForMyAccount(&passkey)
        let readOnly = PasskeyHarness.bearer(
            try await harness.myAccountToken(userID: login.userID, scope: ["read:me:authentication_methods"]))
        let id = "passkey|" + Base64URL.encode(passkey.credentialID)
        let start = await harness.client.post(PasskeyHarness.methodsPath, json: ["type": "passkey"], headers: readOnly)
        let body = try Self.problem(start, status: 403, type: "insufficient_scope")
        #expect(body["title"]?.stringValue == "Forbidden")
        #expect(start.headers["WWW-Authenticate"]?.contains(#"scope="create:me:authentication_methods""#) == true)
        let verify = await harness.client.post(
            PasskeyHarness.methodPath("passkey|new") + "/verify", json: ["auth_session": "x"], headers: readOnly)
        _ = try Self.problem(verify, status: 403, type: "insufficient_scope")
        let delete = await harness.client.delete(PasskeyHarness.methodPath(id), headers: readOnly)
        _ = try Self.problem(delete, status: 403, type: "insufficient_scope")
        #expect(delete.headers["WWW-Authenticate"]?.contains(#"scope="delete:me:authentication_methods""#) == true)
        #expect(await harness.client.get(PasskeyHarness.methodPath(id), headers: readOnly).status == 200)
        // Create and delete without read: neither lists.
        let writer = PasskeyHarness.bearer(
            try await harness.myAccountToken(
                userID: login.userID,
                scope: ["create:me:authentication_methods", "delete:me:authentication_methods"]))
        _ = try Self.problem(
            await harness.client.get(PasskeyHarness.methodsPath, headers: writer), status: 403,
            type: "insufficient_scope")
        #expect(try await harness.context.store.read { try $0.credentials(userID: login.userID) }.count == 1)
        // A login that asked for none of them is granted none; /me/passkeys (passkeyd's own surface) needs none.
        var other = Passkey()
        let plain = try await harness.signUpForMyAccount(&other, email: "bob@example.com", scope: ["openid"])
        #expect(!plain.scope.contains("read:me:authentication_methods"))
        let plainAuth = PasskeyHarness.bearer(plain.token)
        _ = try Self.problem(
            await harness.client.get(PasskeyHarness.methodsPath, headers: plainAuth), status: 403,
            type: "insufficient_scope")
        #expect(await harness.client.get("/me/passkeys", headers: plainAuth).status == 200)
    }

    @Test("a DPoP-bound token without the scope: 403 with a DPoP challenge naming the scope")
    func dpopScope() async throws {
        let harness = try PasskeyHarness()
        var passkey = Passkey()
        let login = try await harness.signUpForMyAccount(&passkey)
        let prover = try DPoPProver()
        let token = try await harness.myAccountToken(userID: login.userID, scope: ["openid"], boundTo: prover)
        let refused = await harness.client.get(
            PasskeyHarness.methodsPath,
            headers: try harness.dpopHeaders("GET", PasskeyHarness.methodsPath, token: token, prover: prover))
        _ = try Self.problem(refused, status: 403, type: "insufficient_scope")
        let challenge = try #require(refused.headers["WWW-Authenticate"])
        #expect(challenge.hasPrefix("DPoP "))
        #expect(challenge.contains(#"scope="read:me:authentication_methods""#))
    }

    @Test("the issuer's token and no token are 401 invalid_token problems with the Bearer challenge")
    func wrongAudience() async throws {
        let harness = try PasskeyHarness()
        var passkey = Passkey()
        let issuerToken = try #require(try await harness.signUp(&passkey)["access_token"]?.stringValue)
        let refused = await harness.client.get(
            PasskeyHarness.methodsPath, headers: PasskeyHarness.bearer(issuerToken))
        let body = try Self.problem(refused, status: 401, type: "invalid_token")
        #expect(body["title"]?.stringValue == "Unauthorized")
        #expect(
            refused.headers["WWW-Authenticate"]?.hasPrefix("Bearer realm=\"passkeyd\", error=\"invalid_token\"") == true
        )
        let anonymous = await harness.client.post(PasskeyHarness.methodsPath, json: ["type": "passkey"])
        _ = try Self.problem(anonymous, status: 401, type: "invalid_token")
        #expect(anonymous.headers["WWW-Authenticate"] == "Bearer realm=\"passkeyd\"")
    }

    @Test("the recovery token is passkeyd's own: /me/passkeys/challenge takes it, the My Account API does not")
    func recoveryToken() async throws {
        let recovery = try RecoveryHarness()
        var passkey = Passkey()
        let codes = try await recovery.signUpWithCodes(&passkey)
        let recovered = try await recovery.recover(identifier: "alice@example.com", code: codes[0])
        let token = try #require(try recovered.jsonValue()["access_token"]?.stringValue)
        let client = recovery.passkeys.client
        let refused = await client.post(
            PasskeyHarness.methodsPath, json: ["type": "passkey"], headers: PasskeyHarness.bearer(token))
        _ = try Self.problem(refused, status: 401, type: "invalid_token")
        let own = await client.post(
            "/me/passkeys/challenge", json: [String: String](), headers: PasskeyHarness.bearer(token))
        #expect(own.status == 200, "\(own.bodyText)")
    }

    @Test("unknown, malformed and another user's ids are the same 404 problem; the other user's passkey stays")
    func notFound() async throws {
        let harness = try PasskeyHarness()
        var alice = Passkey()
        let aliceLogin = try await harness.signUpForMyAccount(&alice)
        var bob = Passkey()
        let bobLogin = try await harness.signUpForMyAccount(&bob, email: "bob@example.com")
        let auth = PasskeyHarness.bearer(aliceLogin.token)
        let bobsID = "passkey|" + Base64URL.encode(bob.credentialID)
        for id in [bobsID, "passkey|" + Base64URL.encode([1, 2, 3]), "passkey|", "totp|abc", "passkey|***"] {
            let read = await harness.client.get(PasskeyHarness.methodPath(id), headers: auth)
            let body = try Self.problem(read, status: 404, type: "not_found")
            #expect(body["title"]?.stringValue == "Not Found")
            #expect(body["detail"]?.stringValue == "No such passkey.")
            _ = try Self.problem(
                await harness.client.delete(PasskeyHarness.methodPath(id), headers: auth), status: 404,
                type: "not_found")
        }
        let listed = try await harness.client.get(PasskeyHarness.methodsPath, headers: auth).jsonValue()
        #expect(
            listed["authentication_methods"]?.arrayValue?.map { $0["id"]?.stringValue } == [
                "passkey|" + Base64URL.encode(alice.credentialID)
            ])
        #expect(try await harness.context.store.read { try $0.credentials(userID: bobLogin.userID) }.count == 1)
        // The verify route knows only the id its Location gave.
        let verify = await harness.client.post(
            PasskeyHarness.methodPath(bobsID) + "/verify",
            json: ["auth_session": "x", "authn_response": .object([])], headers: auth)
        _ = try Self.problem(verify, status: 404, type: "not_found")
    }

    @Test("a body member missing or not the user's is 400 with validation_errors naming it")
    func validation() async throws {
        let harness = try PasskeyHarness()
        var passkey = Passkey()
        let login = try await harness.signUpForMyAccount(&passkey)
        let auth = PasskeyHarness.bearer(login.token)
        let cases: [(JSONValue, String)] = [
            (.object([]), "type"), (["type": "totp"], "type"),
            (["type": "passkey", "connection": "phones"], "connection"),
            (["type": "passkey", "identity_user_id": "someone-else"], "identity_user_id"),
        ]
        for (body, field) in cases {
            let refused = await harness.client.post(PasskeyHarness.methodsPath, json: body, headers: auth)
            let problem = try Self.problem(refused, status: 400, type: "invalid_request")
            let error = try #require(problem["validation_errors"]?.arrayValue?.first)
            #expect(error["field"]?.stringValue == field)
            #expect(error["pointer"]?.stringValue == "/" + field)
            #expect(error["detail"]?.stringValue?.isEmpty == false)
        }
        let verify = await harness.client.post(
            PasskeyHarness.methodPath("passkey|new") + "/verify", json: ["auth_session": "x"], headers: auth)
        let problem = try Self.problem(verify, status: 400, type: "invalid_request")
        #expect(problem["validation_errors"]?.arrayValue?.first?["field"]?.stringValue == "authn_response")
    }

    @Test("enrolment and removal need a fresh login (401 step-up problem); the only passkey is 409 last_passkey")
    func guards() async throws {
        let harness = try PasskeyHarness()
        var passkey = Passkey()
        let login = try await harness.signUpForMyAccount(&passkey)
        let id = "passkey|" + Base64URL.encode(passkey.credentialID)
        let stale = PasskeyHarness.bearer(
            try await harness.myAccountToken(
                userID: login.userID, scope: PasskeyHarness.authenticationMethodScopes, loginAge: 3600))
        let start = await harness.client.post(PasskeyHarness.methodsPath, json: ["type": "passkey"], headers: stale)
        _ = try Self.problem(start, status: 401, type: "insufficient_user_authentication")
        #expect(start.headers["WWW-Authenticate"]?.contains(#"max_age="300""#) == true)
        _ = try Self.problem(
            await harness.client.delete(PasskeyHarness.methodPath(id), headers: stale), status: 401,
            type: "insufficient_user_authentication")
        #expect(await harness.client.get(PasskeyHarness.methodsPath, headers: stale).status == 200)
        let last = await harness.client.delete(
            PasskeyHarness.methodPath(id), headers: PasskeyHarness.bearer(login.token))
        _ = try Self.problem(last, status: 409, type: "last_passkey")
        #expect(try await harness.context.store.read { try $0.credentials(userID: login.userID) }.count == 1)
    }
}
