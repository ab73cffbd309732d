import Foundation
import Storage
import Testing
import Tokens

@testable import Service

/// `RefreshRefusal`: the answer, the audit event and the reuse metric of a refused refresh all come from the
/// decision, never from its log code.
@Suite("RefreshRefusal: one decision, its answer and its audit event")
struct RefreshRefusalTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test(
        "each refusal of the token answers invalid_grant with its own log code",
        arguments: [
            (RefreshRefusal.unknownToken, "refresh_unknown"), (.otherClient, "refresh_other_client"),
            (.revoked, "refresh_revoked"), (.expired, "refresh_expired"), (.reused, "refresh_reused"),
            (.userGone, "refresh_user_gone"),
        ])
    func tokenRefusals(refusal: RefreshRefusal, logCode: String) {
        #expect(refusal.error.kind == .invalidGrant)
        #expect(refusal.error.clientDescription == "Unknown or invalid refresh token.")
        #expect(refusal.error.logCode == logCode)
        #expect(refusal.revokedFamily == (logCode == "refresh_reused"))
    }

    @Test("the policy's verdicts become refusals; a rotation is none")
    func policyDecisions() {
        #expect(RefreshRefusal(.rotate(successor: RefreshTokenExpiry(idle: Self.now, absolute: Self.now))) == nil)
        #expect(RefreshRefusal(.reuseDetected)?.revokedFamily == true)
        #expect(RefreshRefusal(.revoked)?.error.logCode == "refresh_revoked")
        #expect(RefreshRefusal(.expired)?.error.logCode == "refresh_expired")
    }

    @Test("only a reuse is audited as refresh_reuse; a request check's error is answered and audited as it is")
    func auditEvents() {
        let reuse = RefreshGrant.auditEvent(.refused(.reused), clientID: "app", stored: nil, now: Self.now)
        #expect(reuse.knownKind == .refreshReuse && reuse.reasonCode == "refresh_reused")
        let expired = RefreshGrant.auditEvent(.refused(.expired), clientID: "app", stored: nil, now: Self.now)
        #expect(expired.knownKind == .refresh && expired.reasonCode == "refresh_expired")

        // A check of the request is never a reuse, whatever its log code says.
        let check = OAuthError(.invalidScope, "The requested scope is invalid.", logCode: "refresh_reused")
        let request = RefreshRefusal.request(check)
        #expect(!request.revokedFamily)
        #expect(request.error.kind == .invalidScope && request.error.logCode == "refresh_reused")
        let event = RefreshGrant.auditEvent(.refused(request), clientID: "app", stored: nil, now: Self.now)
        #expect(event.knownKind == .refresh && event.outcome == AuthenticationAuditEvent.failure)
    }
}
