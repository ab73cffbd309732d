import Foundation
import HTTP
import JSON
import Storage
import TestSupport
import Testing

@testable import Configuration
@testable import Service
@testable import passkeyd

/// `account_api_access_policy`: the account API `<issuer>me/` for every client (`allow_all`, the default), or only for
/// a client with a client grant for it and the scopes the grant lists (`require_client_grant`, Auth0's My Account API
/// default), so that a client the user signs in to cannot manage the account unless the operator said it may.
@Suite("account_api_access_policy: the account API for every client, or only with a client grant")
struct AccountAPIAccessPolicyTests {
    static let account = TestConfiguration.accountAudience

    /// `require_client_grant`, `app` granted the account API with `read:me:authentication_methods` only.
    static let requireGrant = [
        "PASSKEYD_ACCOUNT_API_ACCESS_POLICY": "require_client_grant",
        "PASSKEYD_CLIENT_GRANTS":
            #"[{"client_id": "app", "audience": "\#(account)", "scopes": ["read:me:authentication_methods"]}]"#,
    ]

    @Test("the setting: allow_all by default, require_client_grant, a misspelling refused; a grant's account scopes")
    func setting() throws {
        #expect(try TestConfiguration.make().accountAPIAccessPolicy == .allowAll)
        let required = try TestConfiguration.make(Self.requireGrant)
        #expect(required.accountAPIAccessPolicy == .requireClientGrant)
        #expect(
            required.clientGrant(clientID: "app", audience: Self.account)?.scopes == ["read:me:authentication_methods"])
        #expect(throws: ConfigurationError.self) {
            try TestConfiguration.make(["PASSKEYD_ACCOUNT_API_ACCESS_POLICY": "require_grant"])
        }
        // A scope the account API does not define, and an audience that is neither an API nor the account API.
        for grant in [
            #"{"client_id": "app", "audience": "\#(Self.account)", "scopes": ["pay"]}"#,
            #"{"client_id": "app", "audience": "https://auth.example.com/you/"}"#,
        ] {
            #expect(throws: ConfigurationError.self, "\(grant)") {
                try TestConfiguration.make(["PASSKEYD_CLIENT_GRANTS": "[\(grant)]"])
            }
        }
    }

    @Test("require_client_grant: a client without a grant is refused 403 before its session is spent")
    func withoutGrant() async throws {
        let harness = try PasskeyHarness(Self.requireGrant)
        var passkey = Passkey()
        _ = try await harness.signUp(&passkey)
        let challenge = try await harness.loginChallenge(clientID: "other").jsonValue()
        let options = try #require(challenge["authn_params_public_key"])
        let session = try #require(challenge["auth_session"]?.stringValue)
        let response = try passkey.assert(options)
        let refused = await harness.token(
            session: session, response: response, clientID: "other", audience: Self.account)
        #expect(refused.status == 403 && refused.errorCode == "access_denied", "\(refused.bodyText)")
        #expect(
            try refused.jsonValue()["error_description"]?.stringValue
                == "Client is not authorized to access \"\(Self.account)\".")
        // The session was not spent: the same assertion logs in for the issuer's API.
        let issuer = await harness.token(session: session, response: response, clientID: "other")
        #expect(issuer.status == 200, "\(issuer.bodyText)")
        // Under the default, the same client gets the account API with every scope asked for.
        let open = try PasskeyHarness()
        var other = Passkey()
        _ = try await open.signUp(&other)
        let openChallenge = try await open.loginChallenge(clientID: "other").jsonValue()
        let granted = await open.token(
            session: try #require(openChallenge["auth_session"]?.stringValue),
            response: try other.assert(try #require(openChallenge["authn_params_public_key"])),
            scope: "openid read:me:authentication_methods", clientID: "other", audience: Self.account)
        #expect(granted.status == 200, "\(granted.bodyText)")
        #expect(try granted.jsonValue()["scope"]?.stringValue == "openid read:me:authentication_methods")
    }

    @Test("require_client_grant: a granted client gets the account API with its grant's scopes only")
    func withGrant() async throws {
        let harness = try PasskeyHarness(Self.requireGrant)
        var passkey = Passkey()
        let signedUp = try await harness.signUpForMyAccount(&passkey)
        #expect(signedUp.scope == "openid offline_access read:me:authentication_methods")
        let bearer: HTTPHeaders = ["Authorization": "Bearer \(signedUp.token)"]
        let listed = await harness.client.get(PasskeyHarness.methodsPath, headers: bearer)
        #expect(listed.status == 200, "\(listed.bodyText)")
        #expect(await harness.client.get("/me/passkeys", headers: bearer).status == 200)
        // A scope the grant does not list is not granted, so its route refuses the token (RFC 6750 §3.1).
        let renamed = await harness.client.patch(
            PasskeyHarness.methodPath("passkey|x"), json: ["name": "x"], headers: bearer)
        #expect(renamed.status == 403, "\(renamed.bodyText)")
    }

    @Test("a family minted under allow_all is refused its refresh once the client needs a grant it has not")
    func refreshNarrows() async throws {
        let store = MemoryStore()
        let open = try PasskeyHarness(store: store)
        var passkey = Passkey()
        let body = try await open.signUp(&passkey, audience: Self.account)
        let refreshToken = try #require(body["refresh_token"]?.stringValue)
        let closed = try PasskeyHarness(["PASSKEYD_ACCOUNT_API_ACCESS_POLICY": "require_client_grant"], store: store)
        let refused = await closed.refresh(refreshToken)
        #expect(refused.status == 403 && refused.errorCode == "access_denied", "\(refused.bodyText)")
        #expect(await open.refresh(refreshToken).status == 200, "allow_all still refreshes it")
    }

    @Test("a refresh token policy for the account API needs the grant under require_client_grant")
    func refreshTokenPolicies() throws {
        let clients = try #require(PasskeyHarness.overrides["PASSKEYD_CLIENTS"]).replacingOccurrences(
            of: #"{"client_id": "other","#,
            with: #"{"client_id": "other", "refresh_token_policies": [{"audience": "\#(Self.account)"}],"#)
        _ = try PasskeyHarness(["PASSKEYD_CLIENTS": clients])
        #expect(throws: ConfigurationError.self) {
            _ = try PasskeyHarness(Self.requireGrant.merging(["PASSKEYD_CLIENTS": clients]) { _, new in new })
        }
    }

    @Test("check-config warns while several clients share allow_all, not under require_client_grant or for one client")
    func warning() throws {
        let several = try TestConfiguration.make(PasskeyHarness.overrides)
        let warning = try #require(several.warnings.first { $0.field == "account_api_access_policy" })
        #expect(warning.reason.contains("4 clients") && warning.reason.contains(Self.account))
        let required = try TestConfiguration.make(PasskeyHarness.overrides.merging(Self.requireGrant) { _, new in new })
        #expect(!required.warnings.contains { $0.field == "account_api_access_policy" })
        #expect(!(try TestConfiguration.make()).warnings.contains { $0.field == "account_api_access_policy" })
    }
}
