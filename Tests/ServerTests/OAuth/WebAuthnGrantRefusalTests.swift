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

@Suite("POST /oauth/token, webauthn grant: refusals")
struct WebAuthnGrantRefusalTests {
    /// Runs a login whose assertion is changed by `change`, expects 403 invalid_grant with the one fixed
    /// description, and the metric naming `code`.
    func refusedLogin(
        code: String, signUp registration: CeremonyTampering = .none,
        description: String = "The passkey could not be verified.", passkeyError: String? = nil,
        _ change: (inout Passkey, JSONValue) throws -> JSONValue
    ) async throws {
        let harness = try PasskeyHarness()
        var authenticator = Passkey()
        _ = try await harness.signUp(&authenticator, tampering: registration)
        let (options, session) = try await harness.loginOptions()
        let response = await harness.token(session: session, response: try change(&authenticator, options))
        #expect(response.status == 403)
        #expect(response.errorCode == "invalid_grant")
        #expect(try response.jsonValue()["error_description"]?.stringValue == description)
        #expect(try response.jsonValue()["passkey_error"]?.stringValue == passkeyError)
        let counted = harness.counted("webauthn_failure:\(code)")
        #expect(counted, "metric webauthn_failure:\(code)")
        let logged = harness.logLines.all.contains { $0.contains("\"code\":\"\(code)\"") }
        #expect(logged, "log line with code \(code)")
    }

    @Test("wrong origin") func wrongOrigin() async throws {
        try await refusedLogin(code: "origin_mismatch") { authenticator, options in
            authenticator.origin = "https://evil.example"
            return try authenticator.assert(options)
        }
    }

    @Test("wrong client data type") func wrongType() async throws {
        try await refusedLogin(code: "type_mismatch") { authenticator, options in
            try authenticator.assert(options, CeremonyTampering(clientDataType: "webauthn.create"))
        }
    }

    @Test("tampered signature") func tampered() async throws {
        try await refusedLogin(code: "bad_signature") { authenticator, options in
            try authenticator.assert(options, CeremonyTampering(corruptsSignature: true))
        }
    }

    @Test("UP clear") func userPresence() async throws {
        try await refusedLogin(code: "user_presence_required") { authenticator, options in
            try authenticator.assert(options, CeremonyTampering(flags: .userVerified))
        }
    }

    @Test("UV clear while the policy requires it") func userVerification() async throws {
        try await refusedLogin(code: "user_verification_required") { authenticator, options in
            try authenticator.assert(options, CeremonyTampering(flags: .userPresent))
        }
    }

    @Test("counter regression") func counterRegression() async throws {
        try await refusedLogin(code: "counter_not_increased", signUp: CeremonyTampering(signCount: 10)) {
            authenticator, options in
            try authenticator.assert(options, CeremonyTampering(signCount: 3))
        }
    }

    @Test("another user's userHandle") func otherUserHandle() async throws {
        try await refusedLogin(code: "user_handle_mismatch") { authenticator, options in
            try authenticator.assert(options, CeremonyTampering(userHandle: [UInt8](repeating: 7, count: 32)))
        }
    }

    @Test("wrong RP ID") func wrongRPID() async throws {
        try await refusedLogin(code: "rp_id_hash_mismatch") { authenticator, options in
            try authenticator.assert(options, CeremonyTampering(rpID: "evil.example"))
        }
    }

    @Test("unknown credential: its own fixed description and passkey_error, for signalUnknownCredential")
    func unknownCredential() async throws {
        try await refusedLogin(
            code: "unknown_credential", description: "The passkey is not registered with this server.",
            passkeyError: "unknown_credential"
        ) { authenticator, options in
            let known = try #require(authenticator.credential)
            authenticator.credential = VirtualCredential(
                id: [1, 2, 3, 4], key: known.key, rpID: known.rpID, userHandle: known.userHandle,
                signCount: known.signCount)
            return try authenticator.assert(options)
        }
    }

    @Test("backup eligibility changed since registration") func backupEligibility() async throws {
        try await refusedLogin(code: "backup_eligibility_changed") { authenticator, options in
            try authenticator.assert(options, CeremonyTampering(flags: [.userPresent, .userVerified, .backupEligible]))
        }
    }

    @Test("id differs from rawId") func idMismatch() async throws {
        try await refusedLogin(code: "credential_id_mismatch") { authenticator, options in
            try authenticator.assert(options, CeremonyTampering(mismatchesID: true))
        }
    }

    @Test("a sign-up whose rawId is not the attested credential id is refused, and nothing is stored")
    func signUpOtherRawID() async throws {
        let harness = try PasskeyHarness()
        var authenticator = Passkey()
        let challenge = try await harness.registerChallenge().jsonValue()
        let options = try #require(challenge["authn_params_public_key"])
        let session = try #require(challenge["auth_session"]?.stringValue)
        let registration = try authenticator.register(options, CeremonyTampering(rawID: [9, 9, 9, 9]))
        let response = await harness.token(session: session, response: registration)
        #expect(response.status == 403)
        #expect(response.errorCode == "invalid_grant")
        #expect(
            harness.counted("webauthn_failure:credential_id_mismatch"), "metric webauthn_failure:credential_id_mismatch"
        )
        let attestedID = try #require(authenticator.credential?.id)
        let stored = try await harness.context.store.read { reader in
            (
                try reader.credential(id: attestedID), try reader.credential(id: [9, 9, 9, 9]),
                try reader.user(realm: "main", identifier: .email("alice@example.com"))
            )
        }
        #expect(stored.0 == nil && stored.1 == nil && stored.2 == nil)
        // The same registration with its own id signs up: the refusal was the id, nothing else.
        let retry = try await harness.registerChallenge(email: "bob@example.com").jsonValue()
        let retryOptions = try #require(retry["authn_params_public_key"])
        let retrySession = try #require(retry["auth_session"]?.stringValue)
        var second = Passkey()
        let accepted = await harness.token(session: retrySession, response: try second.register(retryOptions))
        #expect(accepted.status == 200)
    }

    @Test("an assertion without a signature") func malformed() async throws {
        try await refusedLogin(code: "malformed_response") { authenticator, options in
            var members = try authenticator.assert(options).objectMembers ?? []
            members.removeAll { $0.key == "response" }
            members.append(JSONMember(key: "response", value: ["clientDataJSON": "e30"]))
            return .object(members)
        }
    }

    @Test("a replayed assertion is refused: the session is spent and a new session has another challenge")
    func replay() async throws {
        let harness = try PasskeyHarness()
        var authenticator = Passkey()
        _ = try await harness.signUp(&authenticator)
        let (options, session) = try await harness.loginOptions()
        let assertion = try authenticator.assert(options)
        #expect(await harness.token(session: session, response: assertion).status == 200)
        let again = await harness.token(session: session, response: assertion)
        #expect(again.status == 403)
        #expect(try again.jsonValue()["error_description"]?.stringValue == "Invalid or expired auth_session.")
        let (_, fresh) = try await harness.loginOptions()
        let crossSession = await harness.token(session: fresh, response: assertion)
        #expect(crossSession.status == 403)
        #expect(harness.counted("webauthn_failure:challenge_mismatch"))
    }

    @Test("the session is consumed even when verification fails")
    func consumedOnFailure() async throws {
        let harness = try PasskeyHarness()
        var authenticator = Passkey()
        _ = try await harness.signUp(&authenticator)
        let (options, session) = try await harness.loginOptions()
        #expect(
            await harness.token(
                session: session,
                response: try authenticator.assert(options, CeremonyTampering(corruptsSignature: true))
            ).status == 403)
        let retry = await harness.token(session: session, response: try authenticator.assert(options))
        #expect(retry.status == 403)
        #expect(harness.counted("invalid_grant:session_unknown"))
    }

    @Test("a login refused before verification (malformed response) still spends the session")
    func consumedOnEarlyRefusal() async throws {
        let harness = try PasskeyHarness()
        var authenticator = Passkey()
        _ = try await harness.signUp(&authenticator)
        let (options, session) = try await harness.loginOptions()
        let malformed = await harness.token(session: session, response: ["id": "x"])
        #expect(malformed.status == 403)
        #expect(harness.counted("webauthn_failure:malformed_response"))
        let retry = await harness.token(session: session, response: try authenticator.assert(options))
        #expect(retry.status == 403)
        #expect(harness.counted("invalid_grant:session_unknown"))
    }

    @Test("an expired session is refused: past the timeout and the grace period")
    func expired() async throws {
        let harness = try PasskeyHarness()
        var authenticator = Passkey()
        _ = try await harness.signUp(&authenticator)
        let (options, session) = try await harness.loginOptions()
        harness.clock.advance(60 + 31)
        let response = await harness.token(session: session, response: try authenticator.assert(options))
        #expect(response.status == 403)
        #expect(response.errorCode == "invalid_grant")
    }

    @Test("another client's session is refused")
    func otherClientSession() async throws {
        let harness = try PasskeyHarness()
        var authenticator = Passkey()
        _ = try await harness.signUp(&authenticator)
        let (options, session) = try await harness.loginOptions()
        let response = await harness.token(
            session: session, response: try authenticator.assert(options), clientID: "other")
        #expect(response.status == 403)
        #expect(harness.counted("invalid_grant:session_other_client"))
    }

    @Test("a malformed auth_session is invalid_grant")
    func malformedSession() async throws {
        let harness = try PasskeyHarness()
        var authenticator = Passkey()
        _ = try await harness.signUp(&authenticator)
        let (options, _) = try await harness.loginOptions()
        let response = await harness.token(session: "not-a-session", response: try authenticator.assert(options))
        #expect(response.status == 403)
        #expect(response.errorCode == "invalid_grant")
    }

    @Test("a credential id registered already is refused at sign-up")
    func duplicateCredential() async throws {
        let harness = try PasskeyHarness()
        var authenticator = Passkey()
        _ = try await harness.signUp(&authenticator, email: "one@example.com")
        let registered = authenticator.credentialID
        let challenge = try await harness.registerChallenge(email: "two@example.com").jsonValue()
        let fresh = try authenticator.register(try #require(challenge["authn_params_public_key"]))
        let response = await harness.token(
            session: try #require(challenge["auth_session"]?.stringValue),
            response: try Self.registration(fresh, reusing: registered, for: authenticator.credentialID))
        #expect(response.status == 403)
        #expect(harness.counted("webauthn_failure:credential_exists"))
        #expect(
            try await harness.context.store.read { try $0.user(realm: "main", identifier: .email("two@example.com")) }
                == nil)
    }

    /// `registration` with its credential ID `fresh` swapped for `reused` (same length) in `id`, `rawId` and the
    /// authenticator data. A "none" attestation signs nothing (WebAuthn L3 §8.7), so only the ID changes.
    static func registration(
        _ registration: JSONValue, reusing reused: [UInt8], for fresh: [UInt8]
    ) throws -> JSONValue {
        let response = try #require(registration["response"])
        let encoded = try #require(response["attestationObject"]?.stringValue)
        var attestation = try #require(Base64URL.decode(encoded))
        try #require(reused.count == fresh.count && attestation.count >= fresh.count)
        let start = try #require(
            (0...(attestation.count - fresh.count)).first { Array(attestation[$0..<($0 + fresh.count)]) == fresh })
        attestation.replaceSubrange(start..<(start + fresh.count), with: reused)
        let id = JSONValue.string(Base64URL.encode(reused))
        return [
            "id": id, "rawId": id, "type": "public-key",
            "response": [
                "clientDataJSON": response["clientDataJSON"] ?? .null,
                "attestationObject": .string(Base64URL.encode(attestation)),
            ],
        ]
    }

    @Test("a sign-up answered as a login (assertion to a creation challenge) is refused")
    func signupWithAssertion() async throws {
        let harness = try PasskeyHarness()
        // A credential the server never saw, answering the creation challenge with an assertion.
        var authenticator = Passkey()
        authenticator.credential = VirtualCredential(
            id: [9, 9, 9, 9], key: try CredentialSigningKey(generating: .es256), rpID: "example.com", userHandle: [])
        let challenge = try await harness.registerChallenge().jsonValue()
        let creation = try #require(challenge["authn_params_public_key"])
        let response = await harness.token(
            session: try #require(challenge["auth_session"]?.stringValue),
            response: try authenticator.assert(["challenge": creation["challenge"] ?? .null, "rpId": "example.com"]))
        #expect(response.status == 403)
        #expect(harness.counted("webauthn_failure:malformed_response"))
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
