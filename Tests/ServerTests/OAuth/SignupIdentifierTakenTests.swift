import Crypto
import Foundation
import HTTP
import JSON
import Storage
import TestSupport
import Testing

@testable import Endpoints
@testable import Service

@Suite("POST /oauth/token, webauthn grant: an identifier taken since /passkey/register")
struct SignupIdentifierTakenTests {
    /// Two sign-ups of one email, both past `/passkey/register` (a read) before either reaches the grant: the second
    /// grant answers what `/passkey/register` answers a taken identifier (Auth0's documented answer, 400
    /// `invalid_request`), so the app offers a login, not the failed-passkey 403. The body is the one Auth0.swift's
    /// `login(passkey:challenge:connection:audience:scope:)` sends for a sign-up (grant_type, client_id, realm,
    /// scope, auth_session, authn_response); its `AuthenticationError` reads `error` and `error_description`.
    @Test("the grant that lost the race answers 400 invalid_request \"A user with this identifier already exists.\"")
    func lostRace() async throws {
        let harness = try PasskeyHarness()
        var first = Passkey()
        var second = Passkey()
        let challenges = [
            try await harness.registerChallenge(email: "alice@example.com").jsonValue(),
            try await harness.registerChallenge(email: "Alice@Example.com").jsonValue(),
        ]
        func grant(_ challenge: JSONValue, _ authenticator: inout Passkey) async throws -> Response {
            await harness.post(
                "/oauth/token",
                .object([
                    JSONMember(key: "grant_type", value: "urn:okta:params:oauth:grant-type:webauthn"),
                    JSONMember(key: "client_id", value: "app"),
                    JSONMember(key: "realm", value: "main"),
                    JSONMember(key: "scope", value: "openid profile email offline_access"),
                    JSONMember(key: "auth_session", value: try #require(challenge["auth_session"])),
                    JSONMember(
                        key: "authn_response",
                        value: try authenticator.register(try #require(challenge["authn_params_public_key"]))),
                ]))
        }
        #expect(try await grant(challenges[0], &first).status == 200)
        let lost = try await grant(challenges[1], &second)
        #expect(lost.status == 400)
        #expect(lost.errorCode == "invalid_request")
        #expect(try lost.jsonValue()["error_description"]?.stringValue == "A user with this identifier already exists.")
        #expect(harness.counted("invalid_request:identifier_taken"))
        // The same answer /passkey/register gives now.
        let now = await harness.registerChallenge(email: "alice@example.com")
        #expect(now.status == 400)
        #expect(try now.jsonValue()["error_description"]?.stringValue == "A user with this identifier already exists.")
        // Nothing of the second sign-up was written: the first user keeps the address, with its one credential.
        let user = try #require(
            try await harness.context.store.read { try $0.user(realm: "main", identifier: .email("alice@example.com")) }
        )
        let credentials = try await harness.context.store.read { try $0.credentials(userID: user.id) }
        #expect(credentials.map(\.credentialID) == [first.credentialID])
    }
}
