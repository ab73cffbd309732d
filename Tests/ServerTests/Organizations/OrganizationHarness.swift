import Foundation
import HTTP
import JSON
import Storage
import Testing

@testable import Service

/// A `PasskeyHarness` whose clients use organizations, and the passkey requests with `organization` as Auth0's SDKs
/// send them: Auth0.swift `Auth0/Auth0Authentication.swift` (`passkeySignupChallenge`, `passkeyLoginChallenge`,
/// `login(passkey:challenge:…)`: `organization` beside `client_id`, and again in the token request), Auth0.Android
/// `AuthenticationAPIClient.kt` (`signupWithPasskey`, `passkeyChallenge`, `signinWithPasskey`: the same
/// `organization` parameter).
struct OrganizationHarness {
    let harness: PasskeyHarness

    /// `app` (no `organization_usage`: `deny`), `team` (`allow`) and `business` (`require`), each with the webauthn
    /// and refresh grants and the iOS app whose origin the test authenticator uses.
    static let clients = """
        [{"client_id": "app", "grant_types": ["urn:okta:params:oauth:grant-type:webauthn", "refresh_token"],
          "mobile": {"ios": {"team_id": "ABCDE12345", "app_bundle_identifier": "com.example.app"}}},
         {"client_id": "team", "organization_usage": "allow",
          "grant_types": ["urn:okta:params:oauth:grant-type:webauthn", "refresh_token"],
          "mobile": {"ios": {"team_id": "ABCDE12345", "app_bundle_identifier": "com.example.app"}}},
         {"client_id": "business", "organization_usage": "require",
          "grant_types": ["urn:okta:params:oauth:grant-type:webauthn", "refresh_token"],
          "mobile": {"ios": {"team_id": "ABCDE12345", "app_bundle_identifier": "com.example.app"}}}]
        """

    /// Two organizations: `acme` and `globex`.
    static let acme = Organization(id: "org_aaAA1aa11aAAAA1a", name: "acme", createdAt: Date(timeIntervalSince1970: 0))
    static let globex = Organization(
        id: "org_bbBB2bb22bBBBB2b", name: "globex", displayName: "Globex", createdAt: Date(timeIntervalSince1970: 0))

    /// With `names`, `allow_organization_name_in_authentication_api` is on.
    init(names: Bool = false) async throws {
        var extra = ["PASSKEYD_CLIENTS": Self.clients]
        if names { extra["PASSKEYD_ALLOW_ORGANIZATION_NAME_IN_AUTHENTICATION_API"] = "true" }
        harness = try PasskeyHarness(extra)
        try await harness.context.store.write { writer in
            try writer.insertOrganization(Self.acme)
            try writer.insertOrganization(Self.globex)
        }
    }

    /// `POST /passkey/register` as Auth0.swift's `passkeySignupChallenge` sends it.
    func register(email: String, clientID: String, organization: String?) async -> Response {
        var body: [JSONMember] = [
            JSONMember(key: "client_id", value: .string(clientID)),
            JSONMember(key: "user_profile", value: ["email": .string(email)]),
        ]
        if let organization { body.append(JSONMember(key: "organization", value: .string(organization))) }
        return await harness.post("/passkey/register", .object(body))
    }

    /// `POST /passkey/challenge` as Auth0.swift's `passkeyLoginChallenge` sends it.
    func challenge(clientID: String, organization: String?) async -> Response {
        var body: [JSONMember] = [JSONMember(key: "client_id", value: .string(clientID))]
        if let organization { body.append(JSONMember(key: "organization", value: .string(organization))) }
        return await harness.post("/passkey/challenge", .object(body))
    }

    /// `POST /oauth/token` as Auth0.swift's `login(passkey:challenge:connection:audience:scope:organization:)` sends
    /// it: `scope` always (with `openid`), `organization` when the app passes one.
    func token(session: String, response: JSONValue, clientID: String, organization: String?) async -> Response {
        var body: [JSONMember] = [
            JSONMember(key: "client_id", value: .string(clientID)),
            JSONMember(key: "grant_type", value: "urn:okta:params:oauth:grant-type:webauthn"),
            JSONMember(key: "auth_session", value: .string(session)),
            JSONMember(key: "authn_response", value: response),
            JSONMember(key: "scope", value: "openid profile email offline_access"),
        ]
        if let organization { body.append(JSONMember(key: "organization", value: .string(organization))) }
        return await harness.post("/oauth/token", .object(body))
    }

    /// A sign-up of `passkey` for `email` through `clientID`, in `organization` when given: the token answer.
    func signUp(_ passkey: inout Passkey, email: String, clientID: String, organization: String?) async throws
        -> Response
    {
        let challenge = await register(email: email, clientID: clientID, organization: organization)
        try #require(challenge.status == 200, "register: \(challenge.bodyText)")
        let body = try challenge.jsonValue()
        return await token(
            session: try #require(body["auth_session"]?.stringValue),
            response: try passkey.register(try #require(body["authn_params_public_key"])), clientID: clientID,
            organization: organization)
    }

    /// A login of `passkey` through `clientID`, in `organization` when given (sent at both steps, as the SDKs do,
    /// unless `tokenOrganization` says otherwise): the token answer.
    func logIn(
        _ passkey: inout Passkey, clientID: String, organization: String?, tokenOrganization: String?? = nil
    ) async throws -> Response {
        let challenge = await challenge(clientID: clientID, organization: organization)
        try #require(challenge.status == 200, "challenge: \(challenge.bodyText)")
        let body = try challenge.jsonValue()
        return await token(
            session: try #require(body["auth_session"]?.stringValue),
            response: try passkey.assert(try #require(body["authn_params_public_key"])), clientID: clientID,
            organization: tokenOrganization ?? organization)
    }

    /// The claims of the answer's access and ID tokens.
    static func claims(_ answer: Response) throws -> (access: JSONValue, id: JSONValue) {
        let body = try answer.jsonValue()
        return (
            try SRPHarness.claims(try #require(body["access_token"]?.stringValue)),
            try SRPHarness.claims(try #require(body["id_token"]?.stringValue))
        )
    }

    /// The user `passkey` signed up as.
    func userID(of passkey: Passkey) async throws -> String {
        let handle = passkey.userHandle
        return try #require(try await harness.context.store.read { try $0.user(userHandle: handle) }?.id)
    }

    /// Whether `userID` is a member of `organization`.
    func isMember(_ userID: String, of organization: Organization) async throws -> Bool {
        try await harness.context.store.read {
            try $0.isOrganizationMember(organizationID: organization.id, userID: userID)
        }
    }
}

extension Response {
    /// `error` and `error_description` of an error answer.
    func oauthError() throws -> (String?, String?) {
        let body = try jsonValue()
        return (body["error"]?.stringValue, body["error_description"]?.stringValue)
    }
}
