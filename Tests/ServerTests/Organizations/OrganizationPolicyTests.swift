import Foundation
import HTTP
import JSON
import Storage
import Testing

@testable import Endpoints
@testable import Service

/// `organization` on the passkey endpoints and the webauthn grant against the client's `organization_usage`, with
/// Auth0's answers word for word (its `/authorize` and Authentication API descriptions).
@Suite("Organizations: organization_usage deny, allow and require; unknown organizations; names")
struct OrganizationPolicyTests {
    static let notAllowed = "parameter organization is not allowed for this client"
    static let required = "parameter organization is required for this client"

    @Test("deny (the default): organization is refused at /passkey/register, /passkey/challenge and the grant")
    func deny() async throws {
        let orgs = try await OrganizationHarness()
        let acme = OrganizationHarness.acme.id
        for answer in [
            await orgs.register(email: "d@example.com", clientID: "app", organization: acme),
            await orgs.challenge(clientID: "app", organization: acme),
        ] {
            #expect(answer.status == 400)
            #expect(try answer.oauthError() == ("invalid_request", Self.notAllowed))
        }
        // The grant: a session opened without one, the token request naming one (the SDKs send it there too).
        let challenge = try await orgs.challenge(clientID: "app", organization: nil).jsonValue()
        var passkey = Passkey()
        _ = try await orgs.harness.signUp(&passkey, email: "d@example.com")
        let answer = await orgs.token(
            session: try #require(challenge["auth_session"]?.stringValue),
            response: try passkey.assert(try #require(challenge["authn_params_public_key"])), clientID: "app",
            organization: acme)
        #expect(answer.status == 400)
        #expect(try answer.oauthError() == ("invalid_request", Self.notAllowed))
        // The refresh grant takes none, whatever the client.
        let refresh = await orgs.harness.post(
            "/oauth/token",
            ["grant_type": "refresh_token", "client_id": "team", "refresh_token": "x", "organization": .string(acme)])
        #expect(refresh.status == 400)
        #expect(try refresh.oauthError() == ("invalid_request", "parameter organization is not allowed for this grant"))
        // Without one, a deny client signs up and logs in as before, its tokens in no organization.
        var plain = Passkey()
        let signedUp = try await orgs.signUp(&plain, email: "p@example.com", clientID: "app", organization: nil)
        #expect(signedUp.status == 200)
        #expect(try OrganizationHarness.claims(signedUp).access["org_id"] == nil)
    }

    @Test("require: a request without organization is refused at /passkey/register and /passkey/challenge")
    func require() async throws {
        let orgs = try await OrganizationHarness()
        for answer in [
            await orgs.register(email: "r@example.com", clientID: "business", organization: nil),
            await orgs.challenge(clientID: "business", organization: nil),
        ] {
            #expect(answer.status == 400)
            #expect(try answer.oauthError() == ("invalid_request", Self.required))
        }
        var passkey = Passkey()
        let answer = try await orgs.signUp(
            &passkey, email: "r@example.com", clientID: "business", organization: OrganizationHarness.acme.id)
        #expect(answer.status == 200, "\(answer.bodyText)")
    }

    @Test("an unknown organization, or neither an id nor a name, is refused; a name needs the tenant setting")
    func unknownAndNames() async throws {
        let orgs = try await OrganizationHarness()
        for value in ["org_Unknown000000000", "no such org!"] {
            for answer in [
                await orgs.register(email: "u@example.com", clientID: "team", organization: value),
                await orgs.challenge(clientID: "team", organization: value),
            ] {
                #expect(answer.status == 400)
                #expect(try answer.oauthError() == ("invalid_request", "parameter organization is invalid: \(value)"))
            }
        }
        // A name, while allow_organization_name_in_authentication_api is off (the default).
        let byName = await orgs.challenge(clientID: "team", organization: "acme")
        #expect(byName.status == 400)
        #expect(
            try byName.oauthError() == (
                "invalid_request", "authorization request parameter organization must be an organization id"
            ))
        // On: a name is accepted (any case), an unknown one refused.
        let named = try await OrganizationHarness(names: true)
        #expect(await named.challenge(clientID: "team", organization: "ACME").status == 200)
        let unknown = await named.challenge(clientID: "team", organization: "initech")
        #expect(try unknown.oauthError() == ("invalid_request", "parameter organization is invalid: initech"))
    }

    @Test("require: a login session in no organization (sealed before the client required one) is refused at the grant")
    func requireAtGrant() async throws {
        let orgs = try await OrganizationHarness()
        var passkey = Passkey()
        let signedUp = try await orgs.signUp(
            &passkey, email: "q@example.com", clientID: "business", organization: OrganizationHarness.acme.id)
        #expect(signedUp.status == 200, "\(signedUp.bodyText)")
        // The challenge as it was answered while `business` did not require an organization: sealed in none.
        let context = orgs.harness.context
        let client = try #require(context.configuration.client(id: "business"))
        let realm = try #require(context.configuration.defaultRealm)
        let challenge = try CeremonyChallenges(context: context).login(client: client, realm: realm)
        let answer = await orgs.token(
            session: try #require(challenge["auth_session"]?.stringValue),
            response: try passkey.assert(try #require(challenge["authn_params_public_key"])), clientID: "business",
            organization: nil)
        #expect(answer.status == 400)
        #expect(try answer.oauthError() == ("invalid_request", Self.required))
        // Naming one does not help: it is not the session's.
        let again = try CeremonyChallenges(context: context).login(client: client, realm: realm)
        let named = await orgs.token(
            session: try #require(again["auth_session"]?.stringValue),
            response: try passkey.assert(try #require(again["authn_params_public_key"])), clientID: "business",
            organization: OrganizationHarness.acme.id)
        #expect(named.status == 400)
        #expect(
            try named.oauthError() == (
                "invalid_request", "parameter organization is invalid: \(OrganizationHarness.acme.id)"
            ))
    }

    @Test("the grant's organization must name the session's, or be left out")
    func grantOrganization() async throws {
        let orgs = try await OrganizationHarness()
        var passkey = Passkey()
        let signedUp = try await orgs.signUp(
            &passkey, email: "g@example.com", clientID: "team", organization: OrganizationHarness.acme.id)
        #expect(signedUp.status == 200)
        let other = try await orgs.logIn(
            &passkey, clientID: "team", organization: OrganizationHarness.acme.id,
            tokenOrganization: .some(OrganizationHarness.globex.id))
        #expect(other.status == 400)
        #expect(
            try other.oauthError() == (
                "invalid_request", "parameter organization is invalid: \(OrganizationHarness.globex.id)"
            ))
        // The token request may leave it out: the session's holds.
        let omitted = try await orgs.logIn(
            &passkey, clientID: "team", organization: OrganizationHarness.acme.id, tokenOrganization: .some(nil))
        #expect(omitted.status == 200)
        #expect(try OrganizationHarness.claims(omitted).access["org_id"]?.stringValue == OrganizationHarness.acme.id)
    }
}

extension OrganizationPolicyTests {
    @Test("/passkey/challenge stays an inline answer without organization; naming one, it reads the store")
    func challengeInline() async throws {
        let orgs = try await OrganizationHarness()
        let application = Application(context: orgs.harness.context)
        func inline(_ body: String) -> Response? {
            var request = InlineAnswersTests.request(
                .post, "/passkey/challenge", headers: ["Content-Type": "application/json"])
            request.body = Array(body.utf8)
            return application.respondInline(to: request)
        }
        #expect(inline(#"{"client_id":"team"}"#)?.status == 200)
        #expect(inline(#"{"client_id":"team","organization":7}"#)?.status == 400, "malformed: refused inline")
        #expect(inline(#"{"client_id":"team","organization":"org_aaAA1aa11aAAAA1a"}"#) == nil, "in a task")
    }
}
