import Crypto
import Foundation
import HTTP
import JSON
import SoftwareClient
import TestSupport
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("Passkey flows through the daemon on SQLite", .serialized)
struct PasskeyFlowEndToEndTests {
    @Test("sign-up and login", arguments: CredentialAlgorithm.allCases)
    func signUpAndLogIn(algorithm: CredentialAlgorithm) async throws {
        let server = try await LiveServer.startForPasskeys()
        var authenticator = Passkey(algorithm)
        let tokens = try await server.signUp(&authenticator, email: "\(algorithm)@example.com")
        #expect(tokens["token_type"]?.stringValue == "Bearer")
        #expect(try await server.logIn(&authenticator) == 200)
        #expect(try await server.logIn(&authenticator) == 200)
        let access = try #require(tokens["access_token"]?.stringValue)
        let (status, _, data) = try await server.send(
            "GET", "/userinfo", headers: ["Authorization": "Bearer \(access)"])
        #expect(status == 200)
        #expect(
            try JSONValue(parsing: [UInt8](data))["email"]?.stringValue
                == "\(String(describing: algorithm).lowercased())@example.com")
        await server.stop()
    }

    @Test(
        "refused ceremonies: replayed, cross-session, wrong origin, wrong type, tampered, UP clear, other user, counter"
    )
    func refusals() async throws {
        let server = try await LiveServer.startForPasskeys()
        var alice = Passkey()
        var bob = Passkey()
        _ = try await server.signUp(&alice, email: "alice@example.com")
        _ = try await server.signUp(&bob, email: "bob@example.com")
        // Replayed: the same assertion twice on its own session, then on a fresh one (cross-session).
        let (options, session) = try await server.loginChallenge()
        let assertion = try alice.assert(options)
        #expect(try await server.token(session: session, response: assertion).status == 200)
        #expect(try await server.token(session: session, response: assertion).status == 403)
        let (_, fresh) = try await server.loginChallenge()
        #expect(try await server.token(session: fresh, response: assertion).status == 403)
        // One change each.
        var cases: [(String, (inout Passkey, JSONValue) throws -> JSONValue)] = []
        cases.append(
            (
                "wrong origin",
                { authenticator, options in
                    var copy = authenticator
                    copy.origin = "https://evil.example"
                    return try copy.assert(options)
                }
            ))
        cases.append(("wrong type", { try $0.assert($1, CeremonyTampering(clientDataType: "webauthn.create")) }))
        cases.append(("tampered", { try $0.assert($1, CeremonyTampering(corruptsSignature: true)) }))
        cases.append(("UP clear", { try $0.assert($1, CeremonyTampering(flags: .userVerified)) }))
        cases.append(
            (
                "other user's handle",
                { [bob] authenticator, options in
                    try authenticator.assert(options, CeremonyTampering(userHandle: bob.userHandle))
                }
            ))
        cases.append(("counter regression", { try $0.assert($1, CeremonyTampering(signCount: 0)) }))
        for (name, change) in cases {
            let (options, session) = try await server.loginChallenge()
            let (status, body) = try await server.token(session: session, response: try change(&alice, options))
            #expect(status == 403, "\(name)")
            #expect(body["error"]?.stringValue == "invalid_grant", "\(name)")
            #expect(body["error_description"]?.stringValue == "The passkey could not be verified.", "\(name)")
        }
        let metrics = server.running.context.metrics.render()
        for code in [
            "origin_mismatch", "type_mismatch", "bad_signature", "user_presence_required", "user_handle_mismatch",
            "counter_not_increased", "challenge_mismatch",
        ] {
            #expect(metrics.contains("webauthn_failure:\(code)"), "\(code)")
        }
        #expect(try await server.logIn(&alice) == 200)
        await server.stop()
    }

    @Test("16 concurrent redemptions of one auth_session: exactly one 200")
    func concurrentSession() async throws {
        let server = try await LiveServer.startForPasskeys()
        var authenticator = Passkey()
        _ = try await server.signUp(&authenticator, email: "race@example.com")
        let (options, session) = try await server.loginChallenge()
        let assertion = try authenticator.assert(options)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<16 { group.addTask { try await server.token(session: session, response: assertion).status } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.filter { $0 == 200 }.count == 1)
        #expect(statuses.filter { $0 == 403 }.count == 15)
        await server.stop()
    }

    @Test(
        "refresh rotation, reuse detection, revocation; 16 concurrent redemptions of one refresh token: exactly one 200"
    )
    func refreshTokens() async throws {
        // Without the retry window: SQLite serializes the 16 presentations, and within the window each one after
        // the first would be a retry of a lost answer (`RefreshTokenRetryTests`), not the reuse counted on here.
        let server = try await LiveServer.start(
            environment: PasskeyHarness.overrides.merging(["PASSKEYD_TOKENS_REFRESH_TOKEN_REUSE_GRACE_SECONDS": "0"]) {
                $1
            })
        var authenticator = Passkey()
        let tokens = try await server.signUp(&authenticator, email: "refresh@example.com")
        let first = try #require(tokens["refresh_token"]?.stringValue)
        let rotated = try await server.refresh(first)
        #expect(rotated.status == 200)
        let second = try #require(rotated.body["refresh_token"]?.stringValue)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<16 { group.addTask { try await server.refresh(second).status } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.filter { $0 == 200 }.count == 1)
        // The racing presentations were reuse: the whole family is revoked now.
        let reused = try await server.refresh(first)
        #expect(reused.status == 403)
        #expect(reused.body["error_description"]?.stringValue == "Unknown or invalid refresh token.")
        // A fresh login starts a new family, which /oauth/revoke ends.
        let (options, session) = try await server.loginChallenge()
        let login = try await server.token(session: session, response: authenticator.assert(options))
        let third = try #require(login.body["refresh_token"]?.stringValue)
        #expect(try await server.post("/oauth/revoke", ["client_id": "app", "token": .string(third)]).status == 200)
        #expect(try await server.refresh(third).status == 403)
        await server.stop()
    }

    @Test("refresh tokens and users survive a restart")
    func restart() async throws {
        let server = try await LiveServer.startForPasskeys()
        var authenticator = Passkey()
        let tokens = try await server.signUp(&authenticator, email: "durable@example.com")
        let jwks = try await server.send("GET", "/.well-known/jwks.json").body
        await server.stopKeepingData()
        let restarted = try await LiveServer.startForPasskeys(directory: server.directory)
        #expect(try await restarted.send("GET", "/.well-known/jwks.json").body == jwks)
        #expect(try await restarted.refresh(try #require(tokens["refresh_token"]?.stringValue)).status == 200)
        #expect(try await restarted.logIn(&authenticator) == 200)
        await restarted.stop()
    }

    @Test("passkeyd keys rotate --now: the new key signs after the restart, the old one stays published")
    func rotateKeys() async throws {
        let server = try await LiveServer.startForPasskeys()
        var authenticator = Passkey()
        let before = try await server.signUp(&authenticator, email: "rotate@example.com")
        await server.stopKeepingData()
        let (kids, _) = try await KeysRotateCommand.rotate(
            configuration: server.running.context.configuration, immediately: true)
        #expect(kids.count == 2, "one new key of each algorithm")
        let restarted = try await LiveServer.startForPasskeys(directory: server.directory)
        let jwks = try JSONValue(parsing: [UInt8](try await restarted.send("GET", "/.well-known/jwks.json").body))
        #expect(jwks["keys"]?.arrayValue?.count == 4)
        let (options, session) = try await restarted.loginChallenge()
        let after = try await restarted.token(session: session, response: authenticator.assert(options))
        let header = try #require(after.body["access_token"]?.stringValue?.split(separator: ".").first)
        // One of the new keys (the one of the access tokens' algorithm, RS256 by default).
        let signedBy = String(decoding: try #require(Base64URL.decode(String(header))), as: UTF8.self)
        #expect(kids.contains { signedBy.contains($0) })
        let old = try #require(before["access_token"]?.stringValue)
        #expect(try await restarted.send("GET", "/userinfo", headers: ["Authorization": "Bearer \(old)"]).status == 200)
        await restarted.stop()
    }

    @Test("an Android apk-key-hash origin: accepted for the configured fingerprint, refused for another")
    func androidOrigin() async throws {
        let server = try await LiveServer.startForPasskeys()
        var authenticator = Passkey()
        authenticator.origin = PasskeyHarness.androidOrigin
        _ = try await server.signUp(&authenticator, email: "android@example.com")
        #expect(try await server.logIn(&authenticator) == 200)
        authenticator.origin = "android:apk-key-hash:" + String(repeating: "zc3N", count: 10) + "zc0"
        #expect(try await server.logIn(&authenticator) == 403)
        await server.stop()
    }

    @Test("the association files are served as application/json")
    func associationFiles() async throws {
        let server = try await LiveServer.startForPasskeys()
        let apple = try await server.send("GET", "/.well-known/apple-app-site-association")
        #expect(apple.status == 200)
        #expect(apple.headers["content-type"] == "application/json")
        #expect(
            String(decoding: apple.body, as: UTF8.self)
                == #"{"webcredentials":{"apps":["ABCDE12345.com.example.app"]}}"#)
        let android = try await server.send("GET", "/.well-known/assetlinks.json")
        #expect(android.status == 200)
        #expect(android.headers["content-type"] == "application/json")
        #expect(String(decoding: android.body, as: UTF8.self).contains("delegate_permission/common.get_login_creds"))
        await server.stop()
    }

    @Test("a web page's CORS preflight and login challenge through the daemon")
    func crossOriginThroughDaemon() async throws {
        let server = try await LiveServer.startForPasskeys()
        let preflight = try await server.send(
            "OPTIONS", "/passkey/challenge",
            headers: [
                "Origin": "https://example.com", "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "content-type",
            ])
        #expect(preflight.status == 204)
        #expect(preflight.headers["access-control-allow-origin"] == "https://example.com")
        #expect(preflight.headers["access-control-allow-methods"] == "POST")
        let challenge = try await server.send(
            "POST", "/passkey/challenge", body: Data(#"{"client_id":"app"}"#.utf8),
            headers: ["Content-Type": "application/json", "Origin": "https://example.com"])
        #expect(challenge.status == 200)
        #expect(challenge.headers["access-control-allow-origin"] == "https://example.com")
        let refused = try await server.send(
            "OPTIONS", "/passkey/challenge",
            headers: ["Origin": "https://evil.example", "Access-Control-Request-Method": "POST"])
        #expect(refused.status == 403)
        #expect(refused.headers["access-control-allow-origin"] == nil)
        await server.stop()
    }

    @Test("a 413 for an oversized body carries the endpoint's CORS fields, so a web page can read it")
    func oversizedBodyReadableCrossOrigin() async throws {
        var overrides = PasskeyHarness.overrides
        overrides["PASSKEYD_HTTP_MAX_BODY_BYTES"] = "2048"
        let server = try await LiveServer.start(environment: overrides)
        let big = Data(repeating: 0x41, count: 10_000)
        let token = try await server.send(
            "POST", "/oauth/token", body: big,
            headers: ["Content-Type": "application/json", "Origin": "https://example.com"])
        #expect(token.status == 413)
        #expect(token.headers["access-control-allow-origin"] == "https://example.com")
        #expect(token.headers["vary"]?.contains("Origin") == true)
        // An origin outside the policy gets no grant; an endpoint outside CORS gets no fields at all.
        let evil = try await server.send(
            "POST", "/oauth/token", body: big,
            headers: ["Content-Type": "application/json", "Origin": "https://evil.example"])
        #expect(evil.status == 413)
        #expect(evil.headers["access-control-allow-origin"] == nil)
        let deviceKeys = try await server.send(
            "POST", "/device-keys", body: big,
            headers: ["Content-Type": "application/json", "Origin": "https://example.com"])
        #expect(deviceKeys.status == 413)
        #expect(deviceKeys.headers["access-control-allow-origin"] == nil)
        #expect(deviceKeys.headers["vary"] == nil)
        await server.stop()
    }
}
