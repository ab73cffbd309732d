import Foundation
import Storage
import TestSupport
import Testing

@testable import Service

/// A silent `/authorize` naming an `organization`: the user must be its member; the code carries it into the tokens.
@Suite("Hosted login: organizations")
struct HostedOrganizationTests {
    static let organization = Organization(
        id: "org_hosted00000001", name: "acme", createdAt: Date(timeIntervalSince1970: 0))

    @Test("a member's silent code carries the organization into the tokens (org_id); a non-member is access_denied")
    func silentInOrganization() async throws {
        let harness = try HostedHarness()
        var member = Passkey()
        var outsider = Passkey()
        let plain = try harness.issuance()
        let memberLogin = try await harness.signUp(&member, email: "member@example.com", plain)
        let outsiderLogin = try await harness.signUp(&outsider, email: "outsider@example.com", plain)
        let memberID = try #require(
            try await harness.context.store.read {
                try $0.loginSession(idHash: HostedHarness.storedHash(memberLogin.sessionCookie))
            }?.userID)
        try await harness.context.store.write { writer in
            try writer.insertOrganization(Self.organization)
            _ = try writer.addOrganizationMember(
                OrganizationMember(organizationID: Self.organization.id, userID: memberID, addedAt: Date()))
        }
        var issuance = plain
        issuance.organization = Self.organization.id
        let outcome = try await harness.hosted.issueCode(
            for: issuance, sessionCookie: memberLogin.sessionCookie, maxAge: nil)
        guard case .code(let code) = outcome else {
            Issue.record("no code: \(outcome)")
            return
        }
        let response = await harness.redeem(code)
        #expect(response.status == 200, "\(response.bodyText)")
        let body = try response.jsonValue()
        let access = try SRPHarness.claims(try #require(body["access_token"]?.stringValue))
        let id = try SRPHarness.claims(try #require(body["id_token"]?.stringValue))
        #expect(
            access["org_id"]?.stringValue == Self.organization.id && id["org_id"]?.stringValue == Self.organization.id)
        await #expect(throws: OAuthError.self) {
            _ = try await harness.hosted.issueCode(
                for: issuance, sessionCookie: outsiderLogin.sessionCookie, maxAge: nil)
        }
        issuance.organization = "org_unknown0000001"
        await #expect(throws: OAuthError.self) {
            _ = try await harness.hosted.issueCode(
                for: issuance, sessionCookie: memberLogin.sessionCookie, maxAge: nil)
        }
    }
}
