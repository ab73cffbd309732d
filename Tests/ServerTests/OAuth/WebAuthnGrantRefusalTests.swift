import Crypto
import Foundation
import HTTP
import Storage
import Testing
import TestSupport
import Tokens

@testable import Server

@Suite("POST /oauth/token, webauthn grant: refusals")
struct WebAuthnGrantRefusalTests {
    /// Runs a login whose assertion is changed by `change`, expects 403 invalid_grant with the one fixed
    /// description, and the metric naming `code`.
    func refusedLogin(
        code: String, setUp: (inout TestAuthenticator) -> Void = { _ in },
        _ change: (inout TestAuthenticator, JSONValue) -> JSONValue
    ) async throws {
        let harness = try PasskeyHarness()
        var authenticator = try TestAuthenticator()
        setUp(&authenticator)
        _ = try await harness.signUp(&authenticator)
        let (options, session) = try await harness.loginOptions()
        let response = await harness.token(session: session, response: change(&authenticator, options))
        #expect(response.status == 403)
        #expect(response.errorCode == "invalid_grant")
        #expect(try response.jsonValue()["error_description"]?.stringValue == "The passkey could not be verified.")
        let counted = harness.counted("webauthn_failure:\(code)")
        #expect(counted, "metric webauthn_failure:\(code)")
        let logged = harness.logLines.all.contains { $0.contains("\"code\":\"\(code)\"") }
        #expect(logged, "log line with code \(code)")
    }

    @Test("wrong origin") func wrongOrigin() async throws {
        try await refusedLogin(code: "originMismatch") { authenticator, options in
            authenticator.origin = "https://evil.example"
            return authenticator.assert(options)
        }
    }

    @Test("wrong client data type") func wrongType() async throws {
        try await refusedLogin(code: "typeMismatch") { authenticator, options in
            authenticator.assert(options, type: "webauthn.create")
        }
    }

    @Test("tampered signature") func tampered() async throws {
        try await refusedLogin(code: "badSignature") { authenticator, options in
            authenticator.assert(options, tamper: true)
        }
    }

    @Test("UP clear") func userPresence() async throws {
        try await refusedLogin(code: "userPresenceRequired") { authenticator, options in
            authenticator.assert(options, flags: TestAuthenticator.Flag.uv)
        }
    }

    @Test("UV clear while the policy requires it") func userVerification() async throws {
        try await refusedLogin(code: "userVerificationRequired") { authenticator, options in
            authenticator.assert(options, flags: TestAuthenticator.Flag.up)
        }
    }

    @Test("counter regression") func counterRegression() async throws {
        try await refusedLogin(code: "counterNotIncreased", setUp: { $0.signCount = 10 }) { authenticator, options in
            authenticator.assert(options, signCount: 3)
        }
    }

    @Test("another user's userHandle") func otherUserHandle() async throws {
        try await refusedLogin(code: "userHandleMismatch") { authenticator, options in
            authenticator.assert(options, userHandle: .some([UInt8](repeating: 7, count: 32)))
        }
    }

    @Test("wrong RP ID") func wrongRPID() async throws {
        try await refusedLogin(code: "rpIDHashMismatch") { authenticator, options in
            authenticator.rpID = "evil.example"
            return authenticator.assert(options)
        }
    }

    @Test("unknown credential") func unknownCredential() async throws {
        try await refusedLogin(code: "unknownCredential") { authenticator, options in
            authenticator.credentialID = [1, 2, 3, 4]
            return authenticator.assert(options)
        }
    }

    @Test("backup eligibility changed since registration") func backupEligibility() async throws {
        try await refusedLogin(code: "backupEligibilityChanged") { authenticator, options in
            authenticator.extraFlags = TestAuthenticator.Flag.be
            return authenticator.assert(options)
        }
    }

    @Test("id differs from rawId") func idMismatch() async throws {
        try await refusedLogin(code: "credentialIDMismatch") { authenticator, options in
            var members = authenticator.assert(options).objectMembers ?? []
            members[0].value = "AAAA"
            return .object(members)
        }
    }

    @Test("an assertion without a signature") func malformed() async throws {
        try await refusedLogin(code: "malformedResponse") { authenticator, options in
            var members = authenticator.assert(options).objectMembers ?? []
            members.removeAll { $0.key == "response" }
            members.append(JSONMember(key: "response", value: ["clientDataJSON": "e30"]))
            return .object(members)
        }
    }

    @Test("a replayed assertion is refused: the session is spent and a new session has another challenge")
    func replay() async throws {
        let harness = try PasskeyHarness()
        var authenticator = try TestAuthenticator()
        _ = try await harness.signUp(&authenticator)
        let (options, session) = try await harness.loginOptions()
        let assertion = authenticator.assert(options)
        #expect(await harness.token(session: session, response: assertion).status == 200)
        let again = await harness.token(session: session, response: assertion)
        #expect(again.status == 403)
        #expect(try again.jsonValue()["error_description"]?.stringValue == "Invalid or expired auth_session.")
        let (_, fresh) = try await harness.loginOptions()
        let crossSession = await harness.token(session: fresh, response: assertion)
        #expect(crossSession.status == 403)
        #expect(harness.counted("webauthn_failure:challengeMismatch"))
    }

    @Test("the session is consumed even when verification fails")
    func consumedOnFailure() async throws {
        let harness = try PasskeyHarness()
        var authenticator = try TestAuthenticator()
        _ = try await harness.signUp(&authenticator)
        let (options, session) = try await harness.loginOptions()
        #expect(
            await harness.token(session: session, response: authenticator.assert(options, tamper: true)).status == 403)
        let retry = await harness.token(session: session, response: authenticator.assert(options))
        #expect(retry.status == 403)
        #expect(harness.counted("invalid_grant:session_unknown"))
    }

    @Test("an expired session is refused")
    func expired() async throws {
        let harness = try PasskeyHarness()
        var authenticator = try TestAuthenticator()
        _ = try await harness.signUp(&authenticator)
        let (options, session) = try await harness.loginOptions()
        harness.clock.advance(61)
        let response = await harness.token(session: session, response: authenticator.assert(options))
        #expect(response.status == 403)
        #expect(response.errorCode == "invalid_grant")
    }

    @Test("another client's session is refused")
    func otherClientSession() async throws {
        let harness = try PasskeyHarness()
        var authenticator = try TestAuthenticator()
        _ = try await harness.signUp(&authenticator)
        let (options, session) = try await harness.loginOptions()
        let response = await harness.token(session: session, response: authenticator.assert(options), clientID: "other")
        #expect(response.status == 403)
        #expect(harness.counted("invalid_grant:session_other_client"))
    }

    @Test("a malformed auth_session is invalid_grant")
    func malformedSession() async throws {
        let harness = try PasskeyHarness()
        var authenticator = try TestAuthenticator()
        let response = await harness.token(
            session: "not-a-session", response: authenticator.assert(["challenge": "AAAA"]))
        #expect(response.status == 403)
        #expect(response.errorCode == "invalid_grant")
    }

    @Test("a credential id registered already is refused at sign-up")
    func duplicateCredential() async throws {
        let harness = try PasskeyHarness()
        var authenticator = try TestAuthenticator()
        _ = try await harness.signUp(&authenticator, email: "one@example.com")
        let challenge = try await harness.registerChallenge(email: "two@example.com").jsonValue()
        let response = await harness.token(
            session: try #require(challenge["auth_session"]?.stringValue),
            response: authenticator.register(try #require(challenge["authn_params_public_key"])))
        #expect(response.status == 403)
        #expect(harness.counted("webauthn_failure:credential_exists"))
        #expect(
            try await harness.context.store.read { try $0.user(realm: "main", identifier: .email("two@example.com")) }
                == nil)
    }

    @Test("a sign-up answered as a login (assertion to a creation challenge) is refused")
    func signupWithAssertion() async throws {
        let harness = try PasskeyHarness()
        var authenticator = try TestAuthenticator()
        let challenge = try await harness.registerChallenge().jsonValue()
        let response = await harness.token(
            session: try #require(challenge["auth_session"]?.stringValue),
            response: authenticator.assert(try #require(challenge["authn_params_public_key"])))
        #expect(response.status == 403)
        #expect(harness.counted("webauthn_failure:malformedResponse"))
    }

    @Test(
        "token request refusals",
        arguments: [
            (#"{"client_id":"app"}"#, 400, "invalid_request"),
            (#"{"grant_type":"password","client_id":"app"}"#, 400, "unsupported_grant_type"),
            (
                #"{"grant_type":"urn:okta:params:oauth:grant-type:webauthn","client_id":"ghost","auth_session":"x","authn_response":{}}"#,
                401, "invalid_client"
            ),
            (
                #"{"grant_type":"urn:okta:params:oauth:grant-type:webauthn","client_id":"refresh-only","auth_session":"x","authn_response":{}}"#,
                403, "unauthorized_client"
            ),
            (
                #"{"grant_type":"refresh_token","client_id":"no-refresh","refresh_token":"x"}"#, 403,
                "unauthorized_client"
            ),
            (
                #"{"grant_type":"urn:okta:params:oauth:grant-type:webauthn","client_id":"app","authn_response":{}}"#,
                400, "invalid_request"
            ),
            (
                #"{"grant_type":"urn:okta:params:oauth:grant-type:webauthn","client_id":"app","auth_session":"x"}"#,
                400, "invalid_request"
            ),
            (
                #"{"grant_type":"urn:okta:params:oauth:grant-type:webauthn","client_id":"app","auth_session":"x","authn_response":7}"#,
                400, "invalid_request"
            ),
            (
                #"{"grant_type":"urn:okta:params:oauth:grant-type:webauthn","client_id":"app","auth_session":"x","authn_response":{},"scope":"a\"b"}"#,
                400, "invalid_request"
            ),
            (
                #"{"grant_type":"urn:okta:params:oauth:grant-type:webauthn","client_id":"app","auth_session":"x","authn_response":{}}"#,
                403, "invalid_grant"
            ),
            (#"not json"#, 400, "invalid_request"),
        ])
    func refusals(body: String, status: Int, error: String) async throws {
        let harness = try PasskeyHarness()
        let response = await harness.client.post(
            "/oauth/token", body: Array(body.utf8), contentType: "application/json")
        #expect(response.status == status, "\(response.bodyText)")
        #expect(response.errorCode == error)
    }
}
