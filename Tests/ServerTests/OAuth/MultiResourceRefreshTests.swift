import Crypto
import Foundation
import HTTP
import JSON
import Storage
import TestSupport
import Testing
import Tokens

@testable import Configuration
@testable import Endpoints
@testable import Service

/// Multi-resource refresh tokens (Auth0's MRRT, its `refresh_token.policies`): a refresh token exchanged for an API
/// the login did not name, as Auth0.swift's `CredentialsManager.apiCredentials(forAudience:scope:)` and
/// Auth0.Android's `getApiCredentials` ask for it.
@Suite("POST /oauth/token, refresh_token grant: multi-resource refresh token policies")
struct MultiResourceRefreshTests {
    static let api = "https://api.example.com"
    static let billing = "https://billing.example.com"

    /// Two APIs, both granted to `app` (`read:data`; `read:billing` only of the billing API's two scopes), and
    /// `app`'s refresh token policies `policies` (JSON), Auth0's example: `[{audience, scope: [..]}]`.
    static func harness(policies: String?) throws -> PasskeyHarness {
        var clients = try #require(PasskeyHarness.overrides["PASSKEYD_CLIENTS"])
        if let policies {
            clients = clients.replacingOccurrences(
                of: #"{"client_id": "app","#, with: #"{"client_id": "app", "refresh_token_policies": \#(policies),"#)
        }
        return try PasskeyHarness([
            "PASSKEYD_CLIENTS": clients,
            "PASSKEYD_APIS": """
            [{"identifier": "\(api)", "scopes": [{"value": "read:data"}, {"value": "write:data"}]},
             {"identifier": "\(billing)", "scopes": [{"value": "read:billing"}, {"value": "write:billing"}]}]
            """,
            "PASSKEYD_CLIENT_GRANTS": """
            [{"client_id": "app", "audience": "\(api)", "scopes": ["read:data", "write:data"]},
             {"client_id": "app", "audience": "\(billing)", "scopes": ["read:billing"]}]
            """,
        ])
    }

    /// A login for the API `api` with `read:data` and a refresh token: the refresh token.
    static func logIn(_ harness: PasskeyHarness) async throws -> String {
        var authenticator = Passkey()
        _ = try await harness.signUp(&authenticator)
        let (options, session) = try await harness.loginOptions()
        let login = await harness.token(
            session: session, response: try authenticator.assert(options),
            scope: "openid profile offline_access read:data", audience: api)
        try #require(login.status == 200, "\(login.bodyText)")
        return try #require(try login.jsonValue()["refresh_token"]?.stringValue)
    }

    /// The body Auth0.swift's `renew(withRefreshToken:audience:scope:)` sends for `apiCredentials(forAudience:
    /// scope:)` (Auth0/Auth0Authentication.swift: `refresh_token`, `grant_type`, `client_id`, and with an audience
    /// `scope` with `openid` added by `includeRequiredScope`, Auth0/Shared.swift, and `audience`); Auth0.Android's
    /// `renewAuth(refreshToken, audience, scope)` sends the same members.
    static func exchange(
        _ harness: PasskeyHarness, _ refreshToken: String, audience: String, scope: String?
    ) async -> Response {
        var body: [JSONMember] = [
            JSONMember(key: "refresh_token", value: .string(refreshToken)),
            JSONMember(key: "grant_type", value: "refresh_token"),
            JSONMember(key: "client_id", value: "app"),
        ]
        if let scope { body.append(JSONMember(key: "scope", value: .string(scope))) }
        body.append(JSONMember(key: "audience", value: .string(audience)))
        return await harness.post("/oauth/token", .object(body))
    }

    static func claims(_ token: String) throws -> JSONValue {
        try JSONValue(parsing: try #require(Base64URL.decode(String(token.split(separator: ".")[1]))))
    }

    /// `aud` of an access token: one string, or an array (the API and the issuer's, with `openid`).
    static func audiences(_ token: String) throws -> [String] {
        let aud = try claims(token)["aud"]
        return aud?.stringValue.map { [$0] } ?? aud?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    @Test("under a policy, a refresh token gets an access token for another API, with the policy's scopes")
    func exchangeForAnotherAPI() async throws {
        let harness = try Self.harness(policies: #"[{"audience": "\#(Self.billing)", "scope": ["read:billing"]}]"#)
        let refreshToken = try await Self.logIn(harness)
        // Auth0's example asks for more than the policy allows: the rest is left out, as Auth0 ignores it.
        let response = await Self.exchange(
            harness, refreshToken, audience: Self.billing, scope: "openid read:billing write:billing")
        #expect(response.status == 200, "\(response.bodyText)")
        let body = try response.jsonValue()
        // What Auth0.swift's Credentials and APICredentials read: access_token, token_type, expires_in, scope.
        let access = try #require(body["access_token"]?.stringValue)
        #expect(body["token_type"]?.stringValue == "Bearer")
        #expect(body["expires_in"]?.intValue != nil)
        #expect(body["scope"]?.stringValue == "openid read:billing")
        let claims = try Self.claims(access)
        #expect(try Self.audiences(access).first == Self.billing)
        #expect(claims["scope"]?.stringValue == "openid read:billing")
        // The token was rotated as every refresh rotates it; its family keeps the login's grant.
        let next = try #require(body["refresh_token"]?.stringValue)
        let again = await harness.refresh(next)
        #expect(again.status == 200, "\(again.bodyText)")
        #expect(try Self.audiences(try #require(try again.jsonValue()["access_token"]?.stringValue)).first == Self.api)
        // Without scope: every scope the policy allows (and the original grant's OIDC scopes).
        let all = await Self.exchange(
            harness, try #require(try again.jsonValue()["refresh_token"]?.stringValue), audience: Self.billing,
            scope: nil)
        #expect(try all.jsonValue()["scope"]?.stringValue == "openid profile offline_access read:billing")
    }

    @Test("a policy for the login's own API adds its scopes to the original ones")
    func sameAudience() async throws {
        let harness = try Self.harness(policies: #"[{"audience": "\#(Self.api)", "scope": ["write:data"]}]"#)
        let refreshToken = try await Self.logIn(harness)
        let response = await Self.exchange(harness, refreshToken, audience: Self.api, scope: nil)
        #expect(response.status == 200, "\(response.bodyText)")
        #expect(try response.jsonValue()["scope"]?.stringValue == "openid profile offline_access read:data write:data")
    }

    @Test("without a policy for it, another API is refused 403 access_denied and the refresh token stays valid")
    func noPolicy() async throws {
        for policies in [nil, #"[{"audience": "\#(Self.api)", "scope": ["write:data"]}]"#] {
            let harness = try Self.harness(policies: policies)
            let refreshToken = try await Self.logIn(harness)
            let refused = await Self.exchange(
                harness, refreshToken, audience: Self.billing, scope: "openid read:billing")
            #expect(refused.status == 403)
            #expect(refused.errorCode == "access_denied")
            let after = await harness.refresh(refreshToken)
            #expect(after.status == 200, "the refused exchange left the token as it was: \(after.bodyText)")
        }
    }

    @Test("a policy is refused at load for an unknown API, an API without a client grant or a scope beyond the grant")
    func refusedPolicies() throws {
        for (policies, field) in [
            (#"[{"audience": "https://nowhere.example"}]"#, "refresh_token_policies[0].audience"),
            (#"[{"audience": "\#(Self.billing)", "scope": ["write:billing"]}]"#, "refresh_token_policies[0].scope[0]"),
            (#"[{"audience": "\#(Self.billing)", "scope": ["read:nothing"]}]"#, "refresh_token_policies[0].scope[0]"),
            (#"[{"audience": "\#(Self.billing)"}, {"audience": "\#(Self.billing)"}]"#, "audience"),
            (#"[{"audience": "\#(Self.billing)", "scopes": []}]"#, "scopes"),
        ] {
            do {
                _ = try Self.harness(policies: policies)
                Issue.record("loaded: \(policies)")
            } catch let error as ConfigurationError {
                #expect(error.field.hasSuffix(field), "\(policies): \(error.field)")
            }
        }
        // No client grant for the API at all.
        #expect(throws: ConfigurationError.self) {
            _ = try PasskeyHarness([
                "PASSKEYD_CLIENTS":
                    #"[{"client_id": "app", "refresh_token_policies": [{"audience": "\#(Self.api)"}]}]"#,
                "PASSKEYD_APIS": #"[{"identifier": "\#(Self.api)"}]"#,
            ])
        }
        // A built-in audience needs no grant, and its own scopes (the account API's) go with it; others do not.
        _ = try Self.harness(policies: #"[{"audience": "\#(TestConfiguration.accountAudience)"}]"#)
        _ = try Self.harness(
            policies:
                #"[{"audience": "\#(TestConfiguration.accountAudience)", "scope": ["read:me:authentication_methods"]}]"#
        )
        #expect(throws: ConfigurationError.self) {
            _ = try Self.harness(
                policies: #"[{"audience": "\#(TestConfiguration.accountAudience)", "scope": ["read:billing"]}]"#)
        }
    }
}
