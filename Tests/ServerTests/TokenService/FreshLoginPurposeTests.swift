import Foundation
import Testing

@testable import Service

@Suite("How recent a login must be, per purpose: one home fed by the configured windows")
struct FreshLoginPurposeTests {
    let login = Date(timeIntervalSince1970: 1_800_000_000)

    func subject(authTime: Date?, amr: [String] = ["hwk", "user"]) -> AuthenticatedSubject {
        AuthenticatedSubject(
            sub: "u1", clientID: "app", scope: ["openid"], authTime: authTime, tokenID: "jti",
            authenticationMethods: amr, issuedAt: authTime ?? login, audience: ["https://issuer/"])
    }

    @Test("each purpose reads its own setting: srp for the verifier, device_keys for device keys, five minutes else")
    func windows() throws {
        let configuration = try TestConfiguration.make([
            "PASSKEYD_SRP_FRESH_LOGIN_MAX_AGE_SECONDS": "600",
            "PASSKEYD_DEVICE_KEYS_ENROLMENT_MAX_AGE_SECONDS": "120",
        ])
        let windows = FreshLoginRequirement.Purpose.allCases.map {
            FreshLoginRequirement.maxAge(for: $0, in: configuration)
        }
        #expect(windows == [600, 120, 120, 300])
        #expect(FreshLoginRequirement(for: .passwordVerifier, in: configuration).maxAge == 600)
        #expect(FreshLoginRequirement(for: .deviceProof, in: configuration).maxAge == 120)
        // The defaults are unchanged: 300 seconds each.
        let defaults = try TestConfiguration.make()
        #expect(
            FreshLoginRequirement.Purpose.allCases.map { FreshLoginRequirement.maxAge(for: $0, in: defaults) }
                == [300, 300, 300, 300])
    }

    @Test(
        "the step-up refusal is 401 insufficient_user_authentication naming the window and the change; none when fresh")
    func stepUpRefusal() throws {
        let requirement = FreshLoginRequirement(
            for: .deviceKeyEnrolment,
            in: try TestConfiguration.make(["PASSKEYD_DEVICE_KEYS_ENROLMENT_MAX_AGE_SECONDS": "120"]))
        let token = subject(authTime: login)
        #expect(requirement.stepUpRefusal(token, now: login.addingTimeInterval(120), change: "Enrolling") == nil)
        let refusal = try #require(
            requirement.stepUpRefusal(token, now: login.addingTimeInterval(121), change: "Enrolling"))
        #expect(refusal.kind == .insufficientUserAuthentication)
        #expect(refusal.maxAge == 120)
        #expect(refusal.logCode == FreshLoginRefusal.loginTooOld.rawValue)
        #expect(
            refusal.clientDescription
                == "Enrolling needs a passkey login with user verification in the last 120 seconds.")
    }

    @Test("a login after an instant: strictly after, whole seconds, and only a user-verified passkey's")
    func loginAfter() {
        let lockedAt = login.addingTimeInterval(-0.5)
        #expect(FreshLoginRequirement.isLogin(of: subject(authTime: login), after: lockedAt))
        #expect(!FreshLoginRequirement.isLogin(of: subject(authTime: login), after: login))
        #expect(!FreshLoginRequirement.isLogin(of: subject(authTime: login, amr: ["pwd"]), after: lockedAt))
        #expect(!FreshLoginRequirement.isLogin(of: subject(authTime: login, amr: ["hwk"]), after: lockedAt))
        #expect(!FreshLoginRequirement.isLogin(of: subject(authTime: nil), after: lockedAt))
    }
}
