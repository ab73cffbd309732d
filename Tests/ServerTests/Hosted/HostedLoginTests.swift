import Foundation
import Storage
import TestSupport
import Testing

@testable import Service

/// Issue 38, the hosted page's back end: the ceremony completed with a login session and a code, a silent
/// `/authorize` in a live session, and logout.
@Suite("Hosted login: completion, silent codes and logout")
struct HostedLoginTests {
    @Test("a sign-up on the hosted page gives a session and a code, stored by their hashes; audited as the sign-up")
    func signup() async throws {
        let harness = try HostedHarness()
        var passkey = Passkey()
        let issuance = try harness.issuance()
        let done = try await harness.signUp(&passkey, issuance)
        #expect(done.sessionCookie.count == 43 && done.code.count == 43 && done.sessionCookie != done.code)
        let now = harness.clock.now()
        #expect(done.sessionExpiresAt == now.addingTimeInterval(604_800))
        let (session, code) = try await harness.context.store.read { reader in
            (
                try reader.loginSession(idHash: HostedHarness.storedHash(done.sessionCookie)),
                try reader.authorizationCode(hash: HostedHarness.storedHash(done.code))
            )
        }
        let stored = try #require(session)
        #expect(stored.realm == "main" && stored.authTime == now && stored.endedAt == nil)
        #expect(stored.authenticationMethods == ["hwk", "user"])
        let issued = try #require(code)
        #expect(issued.userID == stored.userID && issued.sessionHash == stored.idHash && issued.clientID == "web")
        #expect(issued.redirectURI == HostedHarness.redirectURI && issued.codeChallenge == HostedHarness.challenge)
        #expect(issued.nonce == "n-0S6_WzA2Mj" && issued.scope == "openid offline_access")
        #expect(issued.expiresAt == now.addingTimeInterval(60) && issued.redeemedAt == nil)
        let events = try await harness.events()
        #expect(events.map(\.knownKind) == [.signup], "the sign-up's event, nothing else")
        #expect(events.first?.clientID == "web" && events.first?.outcome == "success")
        // No refresh token: the code grant issues it.
        #expect(
            try await harness.context.store.read { try $0.rowsMentioningUser(id: stored.userID, userHandle: []) }
                .keys.contains("refresh_tokens") == false)
    }

    @Test("a login on the hosted page gives a new session and code; audited as the login")
    func login() async throws {
        let harness = try HostedHarness()
        var passkey = Passkey()
        let issuance = try harness.issuance()
        let first = try await harness.signUp(&passkey, issuance)
        harness.clock.advance(100)
        let second = try await harness.logIn(&passkey, issuance)
        #expect(second.sessionCookie != first.sessionCookie && second.code != first.code)
        let secondHash = HostedHarness.storedHash(second.sessionCookie)
        let session = try #require(try await harness.context.store.read { try $0.loginSession(idHash: secondHash) })
        #expect(session.authTime == harness.clock.now())
        let events = try await harness.events()
        #expect(events.map(\.knownKind) == [.signup, .login])
        #expect(events.last?.clientID == "web" && events.last?.outcome == "success")
    }

    @Test("the hosted ceremony expects the hosted page's origin, not the client's app origins")
    func origins() async throws {
        let harness = try HostedHarness()
        var passkey = Passkey()
        passkey.origin = "https://auth.example.com"
        let issuance = try harness.issuance()
        _ = try await harness.signUp(&passkey, issuance)
        // The shared web origin is accepted by the native grant, not by the hosted page.
        passkey.origin = "https://example.com"
        await #expect(throws: (any Error).self) { _ = try await harness.logIn(&passkey, issuance) }
        #expect(try await harness.events().last?.outcome == "failure")
    }

    @Test("a silent authorize in a live session gives a code with the session's auth_time and amr")
    func silent() async throws {
        let harness = try HostedHarness()
        var passkey = Passkey()
        let issuance = try harness.issuance()
        let done = try await harness.signUp(&passkey, issuance)
        let authTime = harness.clock.now()
        harness.clock.advance(3_600)
        let outcome = try await harness.hosted.issueCode(for: issuance, sessionCookie: done.sessionCookie, maxAge: nil)
        guard case .code(let code) = outcome else {
            Issue.record("no code: \(outcome)")
            return
        }
        let stored = try #require(
            try await harness.context.store.read { try $0.authorizationCode(hash: HostedHarness.storedHash(code)) })
        #expect(stored.authTime == authTime && stored.authenticationMethods == ["hwk", "user"])
        #expect(stored.expiresAt == harness.clock.now().addingTimeInterval(60))
        #expect(
            try await harness.hosted.issueCode(for: issuance, sessionCookie: done.sessionCookie, maxAge: 3_600)
                != .loginRequired, "max_age not exceeded")
    }

    @Test("issueCode refuses no, an unknown, an ended, an expired, another realm's and a too old session")
    func silentRefusals() async throws {
        let harness = try HostedHarness()
        var passkey = Passkey()
        let issuance = try harness.issuance()
        let done = try await harness.signUp(&passkey, issuance)
        let cookie = done.sessionCookie
        let hosted = harness.hosted
        #expect(try await hosted.issueCode(for: issuance, sessionCookie: nil, maxAge: nil) == .loginRequired)
        #expect(try await hosted.issueCode(for: issuance, sessionCookie: "unknown", maxAge: nil) == .loginRequired)
        #expect(
            try await hosted.issueCode(for: issuance, sessionCookie: String(repeating: "A", count: 500), maxAge: nil)
                == .loginRequired)
        #expect(
            try await hosted.issueCode(for: try harness.issuance(realm: "phones"), sessionCookie: cookie, maxAge: nil)
                == .loginRequired, "another realm")
        harness.clock.advance(61)
        #expect(try await hosted.issueCode(for: issuance, sessionCookie: cookie, maxAge: 60) == .loginRequired)
        #expect(try await hosted.issueCode(for: issuance, sessionCookie: cookie, maxAge: 0) == .loginRequired)
        #expect(try await hosted.issueCode(for: issuance, sessionCookie: cookie, maxAge: 61) != .loginRequired)
        harness.clock.advance(604_800)
        #expect(try await hosted.issueCode(for: issuance, sessionCookie: cookie, maxAge: nil) == .loginRequired)
        // Ended: another session of the same user.
        let again = try await harness.logIn(&passkey, issuance)
        #expect(try await hosted.logout(sessionCookie: again.sessionCookie, clientID: "web"))
        #expect(
            try await hosted.issueCode(for: issuance, sessionCookie: again.sessionCookie, maxAge: nil) == .loginRequired
        )
    }

    @Test("a logout on one node ends the session for another node over the same store, audited once")
    func logoutEverywhere() async throws {
        let store = MemoryStore()
        let nodeA = try HostedHarness(store: store)
        let nodeB = try HostedHarness(store: store)
        var passkey = Passkey()
        let done = try await nodeA.signUp(&passkey, try nodeA.issuance())
        let issuanceB = try nodeB.issuance()
        #expect(
            try await nodeB.hosted.issueCode(for: issuanceB, sessionCookie: done.sessionCookie, maxAge: nil)
                != .loginRequired, "node B sees the session")
        #expect(try await nodeA.hosted.logout(sessionCookie: done.sessionCookie, clientID: "web"))
        #expect(
            try await nodeB.hosted.issueCode(for: issuanceB, sessionCookie: done.sessionCookie, maxAge: nil)
                == .loginRequired, "node B sees the logout")
        #expect(!(try await nodeB.hosted.logout(sessionCookie: done.sessionCookie)), "ended already")
        #expect(!(try await nodeB.hosted.logout(sessionCookie: nil)))
        let logouts = try await nodeA.events().filter { $0.knownKind == .logout }
        #expect(logouts.count == 1)
        #expect(logouts.first?.clientID == "web" && logouts.first?.outcome == "success")
        #expect(logouts.first?.userID != nil)
    }
}
