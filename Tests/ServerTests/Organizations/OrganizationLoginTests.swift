import Foundation
import HTTP
import JSON
import Storage
import Testing
import Tokens

@testable import Service

/// Sign-up and login in an organization: membership, the tokens' `org_id` / `org_name`, and refresh.
@Suite("Organizations: sign-up adds the member, a non-member's login is refused, tokens and refresh carry org_id")
struct OrganizationLoginTests {
    @Test("a sign-up in an organization makes the user its member; ID and access tokens carry org_id only")
    func signupAddsMember() async throws {
        let orgs = try await OrganizationHarness()
        var passkey = Passkey()
        let answer = try await orgs.signUp(
            &passkey, email: "s@example.com", clientID: "team", organization: OrganizationHarness.acme.id)
        #expect(answer.status == 200, "\(answer.bodyText)")
        let userID = try await orgs.userID(of: passkey)
        #expect(try await orgs.isMember(userID, of: OrganizationHarness.acme))
        #expect(!(try await orgs.isMember(userID, of: OrganizationHarness.globex)))
        let (access, id) = try OrganizationHarness.claims(answer)
        for claims in [access, id] {
            #expect(claims["org_id"]?.stringValue == OrganizationHarness.acme.id)
            // Auth0: org_name only with allow_organization_name_in_authentication_api.
            #expect(claims["org_name"] == nil)
        }
        // A sign-up in no organization (allow) adds no membership.
        var solo = Passkey()
        _ = try await orgs.signUp(&solo, email: "solo@example.com", clientID: "team", organization: nil)
        let soloID = try await orgs.userID(of: solo)
        #expect(!(try await orgs.isMember(soloID, of: OrganizationHarness.acme)))
    }

    @Test("with allow_organization_name_in_authentication_api, by name: the tokens carry org_id and org_name")
    func organizationName() async throws {
        let orgs = try await OrganizationHarness(names: true)
        var passkey = Passkey()
        let answer = try await orgs.signUp(&passkey, email: "n@example.com", clientID: "team", organization: "globex")
        #expect(answer.status == 200, "\(answer.bodyText)")
        let (access, id) = try OrganizationHarness.claims(answer)
        for claims in [access, id] {
            #expect(claims["org_id"]?.stringValue == OrganizationHarness.globex.id)
            #expect(claims["org_name"]?.stringValue == "globex")
        }
        // By id too, when names are allowed.
        let login = try await orgs.logIn(&passkey, clientID: "team", organization: OrganizationHarness.globex.id)
        #expect(try OrganizationHarness.claims(login).id["org_name"]?.stringValue == "globex")
    }

    @Test("a login in an organization its user is no member of: 403 access_denied as Auth0 words it, audited")
    func nonMemberRefused() async throws {
        let orgs = try await OrganizationHarness()
        var passkey = Passkey()
        _ = try await orgs.signUp(&passkey, email: "m@example.com", clientID: "team", organization: nil)
        let userID = try await orgs.userID(of: passkey)
        let refused = try await orgs.logIn(&passkey, clientID: "team", organization: OrganizationHarness.acme.id)
        #expect(refused.status == 403)
        #expect(
            try refused.oauthError() == (
                "access_denied", "user \(userID) is not part of the \(OrganizationHarness.acme.id) organization"
            ))
        let events = try await orgs.harness.context.store.read { try $0.securityEvents(userID: userID, limit: 10) }
        let last = try #require(events.first)
        #expect(last.kind == "login" && last.outcome == "failure" && last.reasonCode == "organization_not_member")
        // A member logs in, in the organization and out of it.
        _ = try await orgs.harness.context.store.write {
            try $0.addOrganizationMember(
                OrganizationMember(organizationID: OrganizationHarness.acme.id, userID: userID, addedAt: Date()))
        }
        let member = try await orgs.logIn(&passkey, clientID: "team", organization: OrganizationHarness.acme.id)
        #expect(member.status == 200, "\(member.bodyText)")
        #expect(try OrganizationHarness.claims(member).id["org_id"]?.stringValue == OrganizationHarness.acme.id)
        let outside = try await orgs.logIn(&passkey, clientID: "team", organization: nil)
        #expect(outside.status == 200)
        #expect(try OrganizationHarness.claims(outside).access["org_id"] == nil)
    }

    @Test("a refresh keeps the family's org_id (and org_name); once the user is removed, the refresh is refused")
    func refreshKeepsOrganization() async throws {
        let orgs = try await OrganizationHarness(names: true)
        var passkey = Passkey()
        let signedUp = try await orgs.signUp(
            &passkey, email: "f@example.com", clientID: "team", organization: OrganizationHarness.acme.id)
        let userID = try await orgs.userID(of: passkey)
        var token = try #require(try signedUp.jsonValue()["refresh_token"]?.stringValue)
        let hash = try Tokens.RefreshToken(presented: token).hash
        #expect(
            try await orgs.harness.context.store.read { try $0.refreshToken(hash: hash) }?.organizationID
                == OrganizationHarness.acme.id)
        for _ in 0..<2 {
            let refreshed = await orgs.harness.refresh(token, clientID: "team")
            #expect(refreshed.status == 200, "\(refreshed.bodyText)")
            let (access, id) = try OrganizationHarness.claims(refreshed)
            for claims in [access, id] {
                #expect(claims["org_id"]?.stringValue == OrganizationHarness.acme.id)
                #expect(claims["org_name"]?.stringValue == "acme")
            }
            token = try #require(try refreshed.jsonValue()["refresh_token"]?.stringValue)
        }
        _ = try await orgs.harness.context.store.write {
            try $0.removeOrganizationMember(organizationID: OrganizationHarness.acme.id, userID: userID)
        }
        let refused = await orgs.harness.refresh(token, clientID: "team")
        #expect(refused.status == 403)
        #expect(try refused.oauthError().0 == "access_denied")
        // A family of no organization refreshes as before, with no org_id.
        let plain = try await orgs.logIn(&passkey, clientID: "team", organization: nil)
        let plainToken = try #require(try plain.jsonValue()["refresh_token"]?.stringValue)
        let refreshed = await orgs.harness.refresh(plainToken, clientID: "team")
        #expect(refreshed.status == 200)
        #expect(try OrganizationHarness.claims(refreshed).access["org_id"] == nil)
    }
}
