import Foundation
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("The fresh-login step-up rule (auth_time, amr, minted by the login)")
struct FreshLoginRequirementTests {
    let login = Date(timeIntervalSince1970: 1_800_000_000.4)

    func subject(authTime: Date?, issuedAt: Date, amr: [String] = ["hwk", "user"]) -> AuthenticatedSubject {
        AuthenticatedSubject(
            sub: "u1", clientID: "app", scope: ["openid"], authTime: authTime, tokenID: "jti",
            authenticationMethods: amr, issuedAt: issuedAt, audience: ["https://issuer/"])
    }

    @Test("a token minted by a user-verified login qualifies up to maxAge seconds later, not one second more")
    func withinMaxAge() {
        let rule = FreshLoginRequirement(maxAge: 300)
        let token = subject(authTime: login, issuedAt: login)
        #expect((try? rule.check(token, now: login).get()) != nil)
        #expect((try? rule.check(token, now: login.addingTimeInterval(300)).get()) != nil)
        #expect(rule.check(token, now: login.addingTimeInterval(301)).refusal == .loginTooOld)
    }

    @Test("a refresh-derived token (original auth_time, later iat) never qualifies, even a second after the login")
    func refreshDerived() {
        let rule = FreshLoginRequirement(maxAge: 300)
        let refreshed = subject(authTime: login, issuedAt: login.addingTimeInterval(1), amr: ["hwk", "user"])
        #expect(rule.check(refreshed, now: login.addingTimeInterval(2)).refusal == .notMintedByLogin)
    }

    @Test("a token naming its session qualifies only as the login's own (jti = sid): a same-second refresh does not")
    func sameSecondRefresh() {
        let rule = FreshLoginRequirement(maxAge: 300)
        func token(jti: String) -> AuthenticatedSubject {
            AuthenticatedSubject(
                sub: "u1", clientID: "app", scope: ["openid"], authTime: login, tokenID: jti,
                authenticationMethods: ["hwk", "user"], issuedAt: login, audience: ["https://issuer/"],
                sessionID: "family-1")
        }
        #expect((try? rule.check(token(jti: "family-1"), now: login).get()) != nil)
        #expect(rule.check(token(jti: "random-jti"), now: login).refusal == .notMintedByLogin)
    }

    @Test("without user verification, without auth_time, or with auth_time in the future: refused, each by name")
    func otherRefusals() {
        let rule = FreshLoginRequirement(maxAge: 300)
        #expect(
            rule.check(subject(authTime: login, issuedAt: login, amr: ["hwk"]), now: login).refusal == .userNotVerified)
        #expect(rule.check(subject(authTime: nil, issuedAt: login), now: login).refusal == .noAuthTime)
        let later = login.addingTimeInterval(10)
        #expect(rule.check(subject(authTime: later, issuedAt: later), now: login).refusal == .loginInFuture)
    }

    @Test("accepted methods are configurable: the password fallback's pwd qualifies where allowed")
    func passwordFallback() {
        let token = subject(authTime: login, issuedAt: login, amr: ["pwd"])
        #expect(FreshLoginRequirement(maxAge: 300).check(token, now: login).refusal == .userNotVerified)
        let rule = FreshLoginRequirement(maxAge: 300, acceptedMethods: ["user", "pwd"])
        #expect((try? rule.check(token, now: login).get()) != nil)
    }
}

extension Result where Failure == FreshLoginRefusal {
    fileprivate var refusal: FreshLoginRefusal? {
        if case .failure(let reason) = self { return reason }
        return nil
    }
}
