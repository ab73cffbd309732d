import Crypto
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

@Suite("POST /oauth/token, refresh_token grant, and POST /oauth/revoke")
struct RefreshTokenGrantTests {
    static func loggedIn() async throws -> (PasskeyHarness, String) {
        let harness = try PasskeyHarness()
        var authenticator = Passkey()
        let body = try await harness.signUp(&authenticator)
        return (harness, try #require(body["refresh_token"]?.stringValue))
    }

    @Test("every use rotates the token; the response has new access and ID tokens")
    func rotation() async throws {
        let (harness, first) = try await Self.loggedIn()
        harness.clock.advance(10)
        let response = await harness.refresh(first)
        #expect(response.status == 200, "\(response.bodyText)")
        let body = try response.jsonValue()
        let second = try #require(body["refresh_token"]?.stringValue)
        #expect(second != first)
        #expect(body["access_token"] != nil)
        #expect(body["id_token"] != nil)
        #expect(body["scope"]?.stringValue == "openid profile email offline_access")
        let records = try await harness.context.store.read {
            try $0.refreshTokens(
                familyID: try #require(try $0.refreshToken(hash: try Tokens.RefreshToken(presented: second).hash))
                    .familyID)
        }
        #expect(records.count == 2)
        #expect(await harness.refresh(second).status == 200)
    }

    @Test("a new family's id is a UUIDv7 of the sign-in instant; rotation keeps it")
    func familyIdentifier() async throws {
        let (harness, first) = try await Self.loggedIn()
        let signedIn = harness.clock.now()
        harness.clock.advance(10)
        let second = try #require(try await harness.refresh(first).jsonValue()["refresh_token"]?.stringValue)
        let families = try await harness.context.store.read { reader in
            try [first, second].map {
                try #require(try reader.refreshToken(hash: try Tokens.RefreshToken(presented: $0).hash)).familyID
            }
        }
        #expect(families[0] == families[1])
        let expected = TimeOrderedIdentifier.make(now: signedIn, random: [UInt8](repeating: 0, count: 10))
        #expect(families[0].prefix(15) == expected.prefix(15))  // 48-bit milliseconds and the version digit
        #expect(families[0].count == 36)
    }

    @Test("presenting a rotated token revokes the whole family")
    func reuse() async throws {
        let (harness, first) = try await Self.loggedIn()
        let second = try #require(try await harness.refresh(first).jsonValue()["refresh_token"]?.stringValue)
        // Past the window in which a client that lost the answer may retry (`RefreshTokenRetryTests`).
        harness.clock.advance(10)
        let reused = await harness.refresh(first)
        #expect(reused.status == 403)
        #expect(reused.errorCode == "invalid_grant")
        #expect(try reused.jsonValue()["error_description"]?.stringValue == "Unknown or invalid refresh token.")
        #expect(await harness.refresh(second).status == 403)
        #expect(harness.counted("invalid_grant:refresh_revoked"))
        #expect(harness.counted("refresh_token_reuse"))
    }

    @Test("idle and absolute lifetimes end the token")
    func lifetimes() async throws {
        let (harness, first) = try await Self.loggedIn()
        harness.clock.advance(1_209_600)
        #expect(await harness.refresh(first).status == 403)
        #expect(harness.counted("invalid_grant:refresh_expired"))
        let (absolute, token) = try await Self.loggedIn()
        var current = token
        for _ in 0..<2 {
            absolute.clock.advance(1_000_000)
            current = try #require(try await absolute.refresh(current).jsonValue()["refresh_token"]?.stringValue)
        }
        // 2.6 M seconds after the login: past the 30-day absolute lifetime, inside the idle window.
        absolute.clock.advance(600_000)
        #expect(await absolute.refresh(current).status == 403)
    }

    @Test("another client's, unknown and malformed tokens are invalid_grant")
    func foreign() async throws {
        let (harness, token) = try await Self.loggedIn()
        #expect(await harness.refresh(token, clientID: "other").status == 403)
        #expect(harness.counted("invalid_grant:refresh_other_client"))
        #expect(await harness.refresh(Base64URL.encode([UInt8](repeating: 1, count: 32))).status == 403)
        #expect(await harness.refresh("short").status == 403)
        #expect(await harness.refresh(token).status == 200)
    }

    @Test("a narrower scope may be asked for, a wider one is invalid_scope")
    func scope() async throws {
        let (harness, token) = try await Self.loggedIn()
        let wider = await harness.post(
            "/oauth/token",
            [
                "grant_type": "refresh_token", "client_id": "app", "refresh_token": .string(token),
                "scope": "openid phone",
            ])
        #expect(wider.status == 400)
        #expect(wider.errorCode == "invalid_scope")
        let (narrowHarness, narrowToken) = try await Self.loggedIn()
        let narrower = await narrowHarness.post(
            "/oauth/token",
            [
                "grant_type": "refresh_token", "client_id": "app", "refresh_token": .string(narrowToken),
                "scope": "openid",
            ])
        #expect(try narrower.jsonValue()["scope"]?.stringValue == "openid")
    }

    /// The newest `refresh` events of the family `token` belongs to, newest first.
    static func refreshEvents(_ harness: PasskeyHarness, token: String) async throws -> [SecurityEvent] {
        try await harness.context.store.read { reader in
            let stored = try #require(try reader.refreshToken(hash: try Tokens.RefreshToken(presented: token).hash))
            return try reader.securityEvents(userID: stored.userID, limit: 100).filter {
                $0.knownKind == .refresh && $0.familyID == stored.familyID
            }
        }
    }

    @Test("a refusal by the request's own checks is a recorded event, and leaves the token usable (docs/audit.md)")
    func refusedRequestIsRecorded() async throws {
        let (harness, token) = try await Self.loggedIn()
        let wider = await harness.post(
            "/oauth/token",
            [
                "grant_type": "refresh_token", "client_id": "app", "refresh_token": .string(token),
                "scope": "openid phone",
            ])
        #expect(wider.errorCode == "invalid_scope")
        let elsewhere = await harness.post(
            "/oauth/token",
            [
                "grant_type": "refresh_token", "client_id": "app", "refresh_token": .string(token),
                "audience": "https://other.example.com/",
            ])
        #expect(elsewhere.status == 403)
        #expect(elsewhere.errorCode == "access_denied")
        let refusals = try await Self.refreshEvents(harness, token: token)
        #expect(refusals.map(\.reasonCode) == ["audience_widened", "scope_widened"])
        #expect(refusals.allSatisfy { $0.outcome == AuthenticationAuditEvent.failure && $0.clientID == "app" })
        // Nothing else was written: the token rotates once, as if the refusals had not happened.
        #expect(await harness.refresh(token).status == 200)
        #expect(try await Self.refreshEvents(harness, token: token).first?.outcome == AuthenticationAuditEvent.success)
    }

    @Test("revocation revokes the family; unknown tokens are 200 too")
    func revoke() async throws {
        let (harness, first) = try await Self.loggedIn()
        let second = try #require(try await harness.refresh(first).jsonValue()["refresh_token"]?.stringValue)
        let response = await harness.post("/oauth/revoke", ["client_id": "app", "token": .string(second)])
        #expect(response.status == 200)
        #expect(await harness.refresh(second).status == 403)
        #expect(await harness.post("/oauth/revoke", ["client_id": "app", "token": "whatever"]).status == 200)
        #expect(await harness.post("/oauth/revoke", ["client_id": "ghost", "token": "whatever"]).status == 401)
        #expect(await harness.post("/oauth/revoke", ["client_id": "app"]).status == 400)
    }

    @Test("another client cannot revoke a token")
    func revokeOtherClient() async throws {
        let (harness, token) = try await Self.loggedIn()
        #expect(await harness.post("/oauth/revoke", ["client_id": "other", "token": .string(token)]).status == 200)
        #expect(await harness.refresh(token).status == 200)
    }

    @Test("no refresh token without offline_access")
    func noOfflineAccess() async throws {
        let harness = try PasskeyHarness()
        var authenticator = Passkey()
        _ = try await harness.signUp(&authenticator)
        let (options, session) = try await harness.loginOptions()
        let body = try await harness.token(session: session, response: authenticator.assert(options), scope: "openid")
            .jsonValue()
        #expect(body["refresh_token"] == nil)
    }
}
