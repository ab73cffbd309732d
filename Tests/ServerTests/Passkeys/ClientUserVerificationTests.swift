import HTTP
import SoftwareClient
import TestSupport
import Testing
import WebAuthn

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

/// Per-client `user_verification`: each ceremony is held to its client's UV policy. The server default is `required`;
/// the client `kiosk` says `preferred`, the client `strict` says `required` under a `preferred` default.
@Suite("Per-client user verification")
struct ClientUserVerificationTests {
    static let grants = #"["urn:okta:params:oauth:grant-type:webauthn", "refresh_token"]"#

    static func harness(serverDefault: String) throws -> PasskeyHarness {
        try PasskeyHarness([
            "PASSKEYD_PASSKEYS_USER_VERIFICATION": serverDefault,
            "PASSKEYD_CLIENTS": """
            [{"client_id": "app", "grant_types": \(grants)},
             {"client_id": "kiosk", "grant_types": \(grants), "user_verification": "preferred"},
             {"client_id": "strict", "grant_types": \(grants), "user_verification": "required"}]
            """,
        ])
    }

    /// Signs up with `clientID`; the authenticator sets UV only when `verifyUser`. Returns the token status.
    static func signUp(_ harness: PasskeyHarness, _ authenticator: inout Passkey, clientID: String, verifyUser: Bool)
        async throws -> Int
    {
        let challenge = try await harness.registerChallenge(email: "\(clientID)@example.com", clientID: clientID)
            .jsonValue()
        let options = try #require(challenge["authn_params_public_key"])
        let session = try #require(challenge["auth_session"]?.stringValue)
        let tampering = verifyUser ? CeremonyTampering.none : CeremonyTampering(flags: .userPresent)
        let response = await harness.token(
            session: session, response: try authenticator.register(options, tampering), clientID: clientID)
        return response.status
    }

    /// Logs in with `clientID`; UV only when `verifyUser`. Returns the token status.
    static func logIn(_ harness: PasskeyHarness, _ authenticator: inout Passkey, clientID: String, verifyUser: Bool)
        async throws -> Int
    {
        let challenge = try await harness.loginChallenge(clientID: clientID).jsonValue()
        let options = try #require(challenge["authn_params_public_key"])
        let session = try #require(challenge["auth_session"]?.stringValue)
        let tampering = verifyUser ? CeremonyTampering.none : CeremonyTampering(flags: .userPresent)
        return await harness.token(
            session: session, response: try authenticator.assert(options, tampering), clientID: clientID
        ).status
    }

    @Test("the options each client is handed carry its own policy")
    func options() async throws {
        let harness = try Self.harness(serverDefault: "required")
        for (clientID, expected) in [("app", "required"), ("kiosk", "preferred"), ("strict", "required")] {
            let login = try await harness.loginChallenge(clientID: clientID).jsonValue()
            #expect(login["authn_params_public_key"]?["userVerification"]?.stringValue == expected, "\(clientID)")
            let signup = try await harness.registerChallenge(email: "\(clientID)@example.com", clientID: clientID)
                .jsonValue()
            #expect(
                signup["authn_params_public_key"]?["authenticatorSelection"]?["userVerification"]?.stringValue
                    == expected, "\(clientID)")
        }
    }

    @Test("a client that prefers UV accepts a ceremony without it; the server default still requires it")
    func preferredClient() async throws {
        let harness = try Self.harness(serverDefault: "required")
        var authenticator = Passkey()
        #expect(try await Self.signUp(harness, &authenticator, clientID: "kiosk", verifyUser: false) == 200)
        #expect(try await Self.logIn(harness, &authenticator, clientID: "kiosk", verifyUser: false) == 200)
        // The same credential through a client without its own policy: the default (`required`) applies.
        #expect(try await Self.logIn(harness, &authenticator, clientID: "app", verifyUser: false) == 403)
        #expect(harness.counted("webauthn_failure:user_verification_required"))
        #expect(try await Self.logIn(harness, &authenticator, clientID: "app", verifyUser: true) == 200)
        var other = Passkey()
        #expect(try await Self.signUp(harness, &other, clientID: "app", verifyUser: false) == 403)
    }

    @Test("a client that requires UV refuses a ceremony without it under a lenient default")
    func requiredClient() async throws {
        let harness = try Self.harness(serverDefault: "preferred")
        var authenticator = Passkey()
        #expect(try await Self.signUp(harness, &authenticator, clientID: "strict", verifyUser: false) == 403)
        #expect(try await Self.signUp(harness, &authenticator, clientID: "app", verifyUser: false) == 200)
        #expect(try await Self.logIn(harness, &authenticator, clientID: "app", verifyUser: false) == 200)
        #expect(try await Self.logIn(harness, &authenticator, clientID: "strict", verifyUser: false) == 403)
        #expect(try await Self.logIn(harness, &authenticator, clientID: "strict", verifyUser: true) == 200)
    }
}
