import Foundation
import HTTP
import Storage
import TestSupport
import Testing
import Tokens

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

/// A refreshed token says how its user logged in: the `amr` and `auth_time` of the login that started its family,
/// for every grant (a password login's refresh stays `pwd`; it turned into `hwk` before).
@Suite("Refresh keeps the family's amr and auth_time")
struct RefreshLoginMethodsTests {
    @Test("a user-verified passkey login's family refreshes as [hwk, user], with the login's auth_time")
    func passkeyFamily() async throws {
        let harness = try PasskeyHarness()
        var passkey = Passkey()
        let body = try await harness.signUp(&passkey)
        let login = try SRPHarness.claims(try #require(body["access_token"]?.stringValue))
        harness.clock.advance(90)
        let refreshed = try await harness.refresh(try #require(body["refresh_token"]?.stringValue)).jsonValue()
        let access = try SRPHarness.claims(try #require(refreshed["access_token"]?.stringValue))
        #expect(access["amr"] == ["hwk", "user"])
        #expect(access["auth_time"] == login["auth_time"])
        #expect(access["iat"]?.intValue == Int(harness.clock.now().timeIntervalSince1970))
        let id = try SRPHarness.claims(try #require(refreshed["id_token"]?.stringValue))
        #expect(id["amr"] == ["hwk", "user"])
        #expect(id["auth_time"] == login["auth_time"])
        // sid: the login's session, in its ID token as in its access tokens, and kept by the refresh's.
        let first = try SRPHarness.claims(try #require(body["id_token"]?.stringValue))
        #expect(first["sid"] != nil && first["sid"] == login["sid"])
        #expect(id["sid"] == login["sid"] && access["sid"] == login["sid"])
    }

    @Test("a password login's family stays a password login across rotations")
    func passwordFamily() async throws {
        let harness = try SRPHarness()
        var passkey = Passkey()
        let account = try await harness.signUp(&passkey)
        try await harness.enrol(
            identity: "alice@example.com", password: "pw",
            accessToken: try #require(account["access_token"]?.stringValue))
        let login = try await harness.logIn(identity: "alice@example.com", password: "pw").response.jsonValue()
        var refresh = try #require(login["refresh_token"]?.stringValue)
        for _ in 0..<2 {
            harness.clock.advance(30)
            let refreshed = try await harness.passkeys.refresh(refresh).jsonValue()
            let claims = try SRPHarness.claims(try #require(refreshed["access_token"]?.stringValue))
            #expect(claims["amr"] == ["pwd"])
            refresh = try #require(refreshed["refresh_token"]?.stringValue)
        }
        let last = try Tokens.RefreshToken(presented: refresh).hash
        let stored = try await harness.store.read { try $0.refreshToken(hash: last) }
        #expect(stored?.authenticationMethods == ["pwd"])
    }

    @Test("a family stored before its amr was (unknown login) refreshes as hwk, but never for the device-key API")
    func legacyFamily() async throws {
        let harness = try PasskeyHarness()
        var passkey = Passkey()
        let body = try await harness.signUp(&passkey, audience: harness.context.tokens.deviceKeyAudience)
        let presented = try #require(body["refresh_token"]?.stringValue)
        let hash = try Tokens.RefreshToken(presented: presented).hash
        // As a v11 database holds it: the same row without amr.
        let stored = try #require(try await harness.context.store.read { try $0.refreshToken(hash: hash) })
        var legacy = stored
        legacy.authenticationMethods = nil
        legacy.tokenHash = try Tokens.RefreshToken(randomBytes: [UInt8](repeating: 7, count: 32)).hash
        let legacyRecord = legacy
        try await harness.context.store.write { try $0.insertRefreshToken(legacyRecord) }
        let legacyToken = try Tokens.RefreshToken(randomBytes: [UInt8](repeating: 7, count: 32)).value
        harness.clock.advance(30)
        let refused = await harness.refresh(legacyToken)
        #expect(refused.status == 403)
        #expect(refused.errorCode == "invalid_grant")
        // Refused before the rotation: the token is as it was, and serves the issuer's API.
        let issuer = await harness.refresh(legacyToken, audience: TestConfiguration.issuer)
        #expect(issuer.status == 200, "\(issuer.bodyText)")
        let claims = try SRPHarness.claims(try #require(try issuer.jsonValue()["access_token"]?.stringValue))
        #expect(claims["amr"] == ["hwk"])
    }
}
