import Foundation
import HTTP
import JSON
import Storage
import TestSupport
import Testing

@testable import Service

/// `grant_type=authorization_code` (RFC 6749 §4.1.3, RFC 7636 §4.6) through the router, with codes from the hosted
/// login's back end.
@Suite("POST /oauth/token, authorization_code grant")
struct AuthorizationCodeGrantTests {
    /// A signed-up user's first code.
    static func code(_ harness: HostedHarness, issuance: CodeIssuance? = nil) async throws -> String {
        var passkey = Passkey()
        return try await harness.signUp(&passkey, try issuance ?? harness.issuance()).code
    }

    /// `error` of a refused token request, after checking it is `invalid_grant`.
    static func expectInvalidGrant(_ response: Response, _ comment: Comment) {
        #expect(response.status == 400 || response.status == 403, comment)
        #expect(response.errorCode == "invalid_grant", comment)
    }

    @Test("the code gives tokens whose ID token carries nonce, auth_time and amr, and a refresh token")
    func tokens() async throws {
        let harness = try HostedHarness()
        let code = try await Self.code(harness)
        let authTime = Int(harness.clock.now().timeIntervalSince1970)
        harness.clock.advance(5)
        let response = await harness.redeem(code)
        #expect(response.status == 200, "\(response.bodyText)")
        let body = try response.jsonValue()
        let id = try SRPHarness.claims(try #require(body["id_token"]?.stringValue))
        #expect(id["nonce"] == "n-0S6_WzA2Mj")
        #expect(id["auth_time"] == .number(String(authTime)))
        #expect(id["amr"] == ["hwk", "user"])
        #expect(id["aud"] == "web" && id["iss"] == "https://auth.example.com/")
        #expect(body["refresh_token"]?.stringValue != nil && body["token_type"] == "Bearer")
        let access = try SRPHarness.claims(try #require(body["access_token"]?.stringValue))
        #expect(access["client_id"] == "web" && access["sid"] != nil)
        let events = try await harness.events()
        #expect(events.last?.knownKind == .codeRedeemed && events.last?.familyID == access["sid"]?.stringValue)
        // The refresh token works as the passkey grant's do.
        let refreshed = await harness.passkeys.refresh(
            try #require(body["refresh_token"]?.stringValue), clientID: "web")
        #expect(refreshed.status == 200, "\(refreshed.bodyText)")
    }

    @Test("refusals: wrong verifier, wrong redirect URI, another client's, unknown; none of them spends the code")
    func refusals() async throws {
        let harness = try HostedHarness()
        let code = try await Self.code(harness)
        let otherVerifier = String(repeating: "a", count: 43)
        Self.expectInvalidGrant(await harness.redeem(code, verifier: otherVerifier), "wrong verifier")
        Self.expectInvalidGrant(
            await harness.redeem(code, redirectURI: "https://app.example.com/callback?x"), "wrong redirect URI")
        Self.expectInvalidGrant(
            await harness.redeem(code, clientID: "web2", redirectURI: "https://two.example.com/cb"), "another client")
        Self.expectInvalidGrant(await harness.redeem(String(repeating: "B", count: 43)), "unknown code")
        Self.expectInvalidGrant(await harness.redeem(String(repeating: "B", count: 200)), "too long to be a code")
        let malformed = await harness.redeem(code, verifier: "short")
        #expect(malformed.status == 400 && malformed.errorCode == "invalid_request", "a malformed verifier")
        for logCode in ["pkce_mismatch", "redirect_uri_mismatch", "code_other_client", "code_unknown"] {
            #expect(harness.passkeys.counted("invalid_grant:\(logCode)"), "\(logCode)")
        }
        // Each refusal of the code that exists is recorded, naming its user and the presenting client; the unknown
        // codes name no user and are not.
        let refused = try await harness.events().filter { $0.knownKind == .codeRefused }
        #expect(refused.map(\.reasonCode) == ["pkce_mismatch", "redirect_uri_mismatch", "code_other_client"])
        #expect(refused.map(\.clientID) == ["web", "web", "web2"])
        #expect(refused.allSatisfy { $0.outcome == "failure" && $0.userID != nil })
        #expect(await harness.redeem(code).status == 200, "the code still works for its holder")
    }

    @Test("an expired code is invalid_grant (the clock moved past its 60 s)")
    func expired() async throws {
        let harness = try HostedHarness()
        let code = try await Self.code(harness)
        harness.clock.advance(60)
        Self.expectInvalidGrant(await harness.redeem(code), "expired")
        #expect(harness.passkeys.counted("invalid_grant:code_expired"))
        let refused = try await harness.events().filter { $0.knownKind == .codeRefused }
        #expect(refused.map(\.reasonCode) == ["code_expired"])
    }

    @Test("a second use is invalid_grant and revokes what the first issued: refresh and access tokens stop working")
    func reuse() async throws {
        let harness = try HostedHarness()
        let code = try await Self.code(harness)
        let first = try await harness.redeem(code).jsonValue()
        let refresh = try #require(first["refresh_token"]?.stringValue)
        let access = try #require(first["access_token"]?.stringValue)
        #expect(
            await harness.passkeys.client.get("/userinfo", headers: ["Authorization": "Bearer \(access)"]).status
                == 200)
        Self.expectInvalidGrant(await harness.redeem(code), "second use")
        Self.expectInvalidGrant(await harness.passkeys.refresh(refresh, clientID: "web"), "the first use's refresh")
        let userinfo = await harness.passkeys.client.get("/userinfo", headers: ["Authorization": "Bearer \(access)"])
        #expect(userinfo.status == 401, "the first use's access token at passkeyd's own endpoint")
        let reuse = try await harness.events().filter { $0.knownKind == .codeReuse }
        #expect(reuse.count == 1 && reuse.first?.outcome == "failure" && reuse.first?.reasonCode == "code_reused")
    }

    @Test("a second use revokes the first's access token also when it issued no refresh token (no offline_access)")
    func reuseWithoutRefreshToken() async throws {
        let harness = try HostedHarness()
        let code = try await Self.code(harness, issuance: try harness.issuance(scope: "openid"))
        let first = try await harness.redeem(code).jsonValue()
        #expect(first["refresh_token"] == nil)
        let access = try #require(first["access_token"]?.stringValue)
        let bearer: HTTPHeaders = ["Authorization": "Bearer \(access)"]
        #expect(await harness.passkeys.client.get("/userinfo", headers: bearer).status == 200)
        Self.expectInvalidGrant(await harness.redeem(code), "second use")
        let userinfo = await harness.passkeys.client.get("/userinfo", headers: bearer)
        #expect(userinfo.status == 401, "the first use's access token at passkeyd's own endpoint: \(userinfo.bodyText)")
        // The revocation's row is no token: nothing presented hashes to it, and it lasts as the access tokens do.
        let family = try #require(try SRPHarness.claims(access)["sid"]?.stringValue)
        let rows = try await harness.passkeys.context.store.read { try $0.refreshTokens(familyID: family) }
        #expect(rows.count == 1 && rows.first?.revokedAt != nil, "\(rows)")
        let lifetime = TimeInterval(harness.passkeys.context.configuration.longestAccessTokenLifetime)
        #expect(rows.first?.absoluteExpiresAt == harness.clock.now().addingTimeInterval(lifetime))
        // A third presentation finds the family revoked already and adds nothing.
        Self.expectInvalidGrant(await harness.redeem(code), "third use")
        #expect(try await harness.passkeys.context.store.read { try $0.refreshTokens(familyID: family) }.count == 1)
    }

    @Test("16 concurrent redemptions of one code: exactly one gets tokens")
    func race() async throws {
        let harness = try HostedHarness()
        let code = try await Self.code(harness)
        let statuses = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<16 { group.addTask { await harness.redeem(code).status } }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses)")
        #expect(try await harness.events().filter { $0.knownKind == .codeRedeemed }.count == 1)
    }

    @Test("a code exchange with a DPoP proof gets DPoP-bound tokens; a client that requires DPoP refuses one without")
    func dpop() async throws {
        let harness = try HostedHarness()
        let prover = try DPoPProver()
        let code = try await Self.code(harness, issuance: try harness.issuance(clientID: "dpop"))
        let unbound = await harness.redeem(code, clientID: "dpop")
        #expect(unbound.status == 400 || unbound.status == 401, "\(unbound.bodyText)")
        let proof = try prover.proof("POST", DPoPTests.tokenURL, now: harness.clock.now())
        let bound = await harness.redeem(code, clientID: "dpop", headers: ["DPoP": proof])
        #expect(bound.status == 200, "\(bound.bodyText)")
        let body = try bound.jsonValue()
        #expect(body["token_type"] == "DPoP")
        let access = try SRPHarness.claims(try #require(body["access_token"]?.stringValue))
        #expect(access["cnf"]?["jkt"]?.stringValue == prover.thumbprint)
    }

    @Test("a code bound to a DPoP key (dpop_jkt) is redeemed only with a proof by that key; refusals do not spend it")
    func dpopBoundCode() async throws {
        let harness = try HostedHarness()
        let (prover, other) = (try DPoPProver(), try DPoPProver())
        var issuance = try harness.issuance()
        issuance.dpopThumbprint = prover.thumbprint
        let code = try await Self.code(harness, issuance: issuance)
        // RFC 9449 §10: without a proof, or with one by another key, the request is rejected.
        Self.expectInvalidGrant(await harness.redeem(code), "no proof")
        let otherProof = try other.proof("POST", DPoPTests.tokenURL, now: harness.clock.now())
        Self.expectInvalidGrant(await harness.redeem(code, headers: ["DPoP": otherProof]), "another key")
        let refused = try await harness.events().filter { $0.knownKind == .codeRefused }
        #expect(refused.map(\.reasonCode) == ["dpop_key_mismatch", "dpop_key_mismatch"])
        let proof = try prover.proof("POST", DPoPTests.tokenURL, now: harness.clock.now())
        let bound = await harness.redeem(code, headers: ["DPoP": proof])
        #expect(bound.status == 200, "\(bound.bodyText)")
        let body = try bound.jsonValue()
        #expect(body["token_type"] == "DPoP")
        let access = try SRPHarness.claims(try #require(body["access_token"]?.stringValue))
        #expect(access["cnf"]?["jkt"]?.stringValue == prover.thumbprint)
    }

    @Test("a loopback redirect URI is redeemed with the port it was issued with, exactly")
    func loopback() async throws {
        let harness = try HostedHarness()
        let uri = "http://127.0.0.1:53123/cb"
        let code = try await Self.code(harness, issuance: try harness.issuance(redirectURI: uri))
        Self.expectInvalidGrant(await harness.redeem(code, redirectURI: "http://127.0.0.1:53124/cb"), "other port")
        #expect(await harness.redeem(code, redirectURI: uri).status == 200)
    }

    @Test("a client without authorization_code may not use the grant")
    func unauthorizedClient() async throws {
        let harness = try HostedHarness()
        let code = try await Self.code(harness)
        let response = await harness.redeem(code, clientID: "app")
        #expect(response.errorCode == "unauthorized_client", "\(response.bodyText)")
    }
}
