import Foundation
import HTTP
import JSON
import Storage
import TestSupport
import Testing
import Tokens

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

/// passkeyd's own endpoints (`/userinfo`, `/me/…`, device keys) refuse an access token whose session has ended, at
/// once rather than at its expiry: its family revoked (RFC 7009, reuse), every session of its user revoked
/// (recovery, an operator), or its user deleted (`TokenService.checkSession`).
@Suite("Access tokens end with their session at passkeyd's own endpoints")
struct SessionRevocationTests {
    static func bearer(_ token: String) -> HTTPHeaders { ["Authorization": "Bearer \(token)"] }

    /// A user signed up for the account API: (harness, passkey, token response).
    static func signedUp() async throws -> (PasskeyHarness, Passkey, JSONValue) {
        let harness = try PasskeyHarness()
        var passkey = Passkey()
        let body = try await harness.signUp(&passkey, audience: TestConfiguration.accountAudience)
        return (harness, passkey, body)
    }

    /// Two sessions of one user for the account API: the sign-up's access and refresh tokens, and another login's
    /// access token (a session that goes on whatever happens to the first).
    static func twoSessions() async throws -> (harness: PasskeyHarness, access: String, refresh: String, other: String)
    {
        var (harness, passkey, body) = try await signedUp()
        let other = try #require(
            try await harness.logIn(&passkey, audience: TestConfiguration.accountAudience).jsonValue()["access_token"]?
                .stringValue)
        return (
            harness, try #require(body["access_token"]?.stringValue), try #require(body["refresh_token"]?.stringValue),
            other
        )
    }

    @Test("every access token names its session: sid is the refresh-token family, kept by every rotation")
    func sessionID() async throws {
        var (harness, passkey, body) = try await Self.signedUp()
        let claims = try SRPHarness.claims(try #require(body["access_token"]?.stringValue))
        let refresh = try #require(body["refresh_token"]?.stringValue)
        let hash = try Tokens.RefreshToken(presented: refresh).hash
        let family = try #require(try await harness.context.store.read { try $0.refreshToken(hash: hash) }?.familyID)
        #expect(claims["sid"]?.stringValue == family)
        harness.clock.advance(5)
        let refreshed = try await harness.refresh(refresh).jsonValue()
        #expect(
            try SRPHarness.claims(try #require(refreshed["access_token"]?.stringValue))["sid"]?.stringValue == family)
        // A login without a refresh token has a session id all the same, of its own.
        let (options, session) = try await harness.loginOptions()
        let noRefresh = try await harness.token(
            session: session, response: try passkey.assert(options), scope: "openid"
        ).jsonValue()
        #expect(noRefresh["refresh_token"] == nil)
        let own = try SRPHarness.claims(try #require(noRefresh["access_token"]?.stringValue))["sid"]?.stringValue
        #expect(own != nil && own != family)
    }

    @Test("revoking the refresh token (RFC 7009) ends the login's access token at /userinfo and /me at once")
    func familyRevocation() async throws {
        let (harness, access, refresh, other) = try await Self.twoSessions()
        #expect(await harness.client.get("/userinfo", headers: Self.bearer(access)).status == 200)
        let revoked = await harness.post("/oauth/revoke", ["client_id": "app", "token": .string(refresh)])
        #expect(revoked.status == 200)
        for path in ["/userinfo", "/me/passkeys"] {
            let refused = await harness.client.get(path, headers: Self.bearer(access))
            #expect(refused.status == 401)
            #expect(refused.errorCode == "invalid_token")
            #expect(refused.headers["WWW-Authenticate"]?.contains(#"error="invalid_token""#) == true)
            #expect(await harness.client.get(path, headers: Self.bearer(other)).status == 200)
        }
        #expect(harness.logLines.all.contains { $0.contains("token_revoked") })
    }

    @Test("revoking an access token (RFC 7009) ends its session: the family's refresh token too, other sessions go on")
    func accessTokenRevocation() async throws {
        let (harness, access, refresh, other) = try await Self.twoSessions()
        // Another client cannot revoke it (RFC 7009 §2.1), and is answered 200 all the same (§2.2).
        #expect(await harness.post("/oauth/revoke", ["client_id": "other", "token": .string(access)]).status == 200)
        #expect(await harness.client.get("/userinfo", headers: Self.bearer(access)).status == 200)
        #expect(await harness.post("/oauth/revoke", ["client_id": "app", "token": .string(access)]).status == 200)
        #expect(await harness.client.get("/userinfo", headers: Self.bearer(access)).status == 401)
        #expect(await harness.client.get("/me/passkeys", headers: Self.bearer(access)).status == 401)
        let refused = await harness.refresh(refresh)
        #expect(refused.errorCode == "invalid_grant", "the family's refresh token: \(refused.bodyText)")
        #expect(await harness.client.get("/userinfo", headers: Self.bearer(other)).status == 200, "another session")
        let events = try await harness.context.store.read { try $0.securityEvents(after: 0, limit: 100) }
        let family = try SRPHarness.claims(access)["sid"]?.stringValue
        let revocations = events.filter { $0.knownKind == .revocation }
        #expect(revocations.count == 1 && revocations.first?.familyID == family, "only app's request revoked")
    }

    @Test("revoking the access token of a login without a refresh token ends it; a token not ours is answered 200")
    func accessTokenRevocationWithoutRefreshToken() async throws {
        var (harness, passkey, _) = try await Self.signedUp()
        let (options, session) = try await harness.loginOptions()
        let body = try await harness.token(
            session: session, response: try passkey.assert(options), scope: "openid"
        ).jsonValue()
        #expect(body["refresh_token"] == nil)
        let access = try #require(body["access_token"]?.stringValue)
        #expect(await harness.client.get("/userinfo", headers: Self.bearer(access)).status == 200)
        #expect(await harness.post("/oauth/revoke", ["client_id": "app", "token": .string(access)]).status == 200)
        #expect(await harness.client.get("/userinfo", headers: Self.bearer(access)).status == 401)
        // Twice is the same; an altered token, another issuer's or garbage revokes nothing and is 200.
        #expect(await harness.post("/oauth/revoke", ["client_id": "app", "token": .string(access)]).status == 200)
        let altered = String(access.dropLast(2)) + (access.hasSuffix("AA") ? "BA" : "AA")
        for token in [altered, "a.b.c", String(repeating: "x", count: 200)] {
            #expect(await harness.post("/oauth/revoke", ["client_id": "app", "token": .string(token)]).status == 200)
        }
        let family = try #require(try SRPHarness.claims(access)["sid"]?.stringValue)
        let families = try await harness.context.store.read { try $0.refreshTokens(familyID: family) }
        #expect(families.count == 1 && families.first?.revokedAt != nil, "one marker row, revoked")
    }

    @Test("reuse of a rotated refresh token ends the access tokens of its family")
    func reuseEndsTheFamily() async throws {
        let (harness, _, body) = try await Self.signedUp()
        let first = try #require(body["refresh_token"]?.stringValue)
        harness.clock.advance(5)
        let rotated = try await harness.refresh(first).jsonValue()
        let access = try #require(rotated["access_token"]?.stringValue)
        #expect(await harness.client.get("/me/passkeys", headers: Self.bearer(access)).status == 200)
        // Past the window in which a client that lost the answer may retry (`RefreshTokenRetryTests`).
        harness.clock.advance(10)
        #expect(await harness.refresh(first).status == 403)
        #expect(await harness.client.get("/me/passkeys", headers: Self.bearer(access)).status == 401)
    }

    @Test("every session of a user revoked: tokens minted before are refused, tokens minted after are not")
    func userRevocation() async throws {
        var (harness, passkey, body) = try await Self.signedUp()
        let before = try #require(body["access_token"]?.stringValue)
        let userID = try #require(try SRPHarness.claims(before)["sub"]?.stringValue)
        harness.clock.advance(2)
        let now = harness.clock.now()
        _ = try await harness.context.store.write { try $0.revokeRefreshTokens(userID: userID, now: now) }
        #expect(await harness.client.get("/userinfo", headers: Self.bearer(before)).status == 401)
        let after = try #require(
            try await harness.logIn(&passkey, audience: TestConfiguration.accountAudience).jsonValue()["access_token"]?
                .stringValue)
        #expect(await harness.client.get("/userinfo", headers: Self.bearer(after)).status == 200)
        #expect(await harness.client.get("/me/passkeys", headers: Self.bearer(after)).status == 200)
    }

    @Test("a deleted account's token is refused everywhere at once")
    func deletedUser() async throws {
        let (harness, _, body) = try await Self.signedUp()
        let access = try #require(body["access_token"]?.stringValue)
        let userID = try #require(try SRPHarness.claims(access)["sub"]?.stringValue)
        _ = try await harness.context.store.write { try $0.deleteUser(id: userID) }
        #expect(await harness.client.get("/userinfo", headers: Self.bearer(access)).status == 401)
    }

    @Test("device-key endpoints refuse a token of a revoked session too")
    func deviceKeys() async throws {
        let harness = try DeviceKeyHarness()
        let auth = try await harness.token()
        #expect(await harness.client.get("/device-keys", headers: auth).status == 200)
        harness.clock.advance(2)
        let now = harness.clock.now()
        _ = try await harness.store.write { try $0.revokeRefreshTokens(userID: "user-a", now: now) }
        let refused = await harness.client.get("/device-keys", headers: auth)
        #expect(refused.status == 401)
        #expect(refused.errorCode == "invalid_token")
        #expect(await harness.client.get("/device-keys", headers: try await harness.token()).status == 200)
    }
}
