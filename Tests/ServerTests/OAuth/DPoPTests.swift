import Crypto
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

/// RFC 9449 through the router: bound tokens at the token endpoint, the refresh grant and protected resources.
@Suite("DPoP: bound tokens, refresh and resources (RFC 9449)")
struct DPoPTests {
    static let tokenURL = "https://auth.example.com/oauth/token"
    static let userinfoURL = "https://auth.example.com/userinfo"

    /// Signs up through the webauthn grant with `prover`'s proof (if any); returns the response.
    static func signUp(
        _ harness: PasskeyHarness, prover: DPoPProver?, clientID: String = "app", nonce: String? = nil,
        proofs: [String]? = nil
    ) async throws -> Response {
        var authenticator = Passkey()
        // A new user each time: an identifier that exists is refused at /passkey/register.
        let email = "user-\(UUID().uuidString.prefix(8))@example.com"
        let challenge = try await harness.registerChallenge(email: email, clientID: clientID).jsonValue()
        let options = try #require(challenge["authn_params_public_key"])
        let session = try #require(challenge["auth_session"]?.stringValue)
        let body: JSONValue = [
            "grant_type": "urn:okta:params:oauth:grant-type:webauthn", "client_id": .string(clientID),
            "auth_session": .string(session), "authn_response": try authenticator.register(options),
            "scope": "openid profile email offline_access",
            // The device-key API's audience too (the issuer's comes with openid): one test enrols a device key.
            "audience": .string(harness.context.tokens.deviceKeyAudience),
        ]
        var headers = HTTPHeaders()
        for proof in try proofs ?? prover.map({
            [try $0.proof("POST", tokenURL, now: harness.clock.now(), nonce: nonce)]
        }) ?? [] {
            headers.add(name: "DPoP", value: proof)
        }
        return await harness.client.post("/oauth/token", json: body, headers: headers)
    }

    /// The refresh grant with `prover`'s proof (if any).
    static func refresh(_ harness: PasskeyHarness, _ token: String, prover: DPoPProver?) async throws -> Response {
        var headers = HTTPHeaders()
        if let prover { headers.add(name: "DPoP", value: try prover.proof("POST", tokenURL, now: harness.clock.now())) }
        return await harness.client.post(
            "/oauth/token", json: ["grant_type": "refresh_token", "client_id": "app", "refresh_token": .string(token)],
            headers: headers)
    }

    /// `GET /userinfo` with `Authorization: <scheme> <token>` and, when given, a proof by `prover`.
    static func userinfo(
        _ harness: PasskeyHarness, _ token: String, scheme: String = "DPoP", prover: DPoPProver?,
        proofToken: String? = nil
    ) async throws -> Response {
        var headers: HTTPHeaders = ["Authorization": "\(scheme) \(token)"]
        if let prover {
            headers.add(
                name: "DPoP",
                value: try prover.proof("GET", userinfoURL, now: harness.clock.now(), accessToken: proofToken ?? token))
        }
        return await harness.client.get("/userinfo", headers: headers)
    }

    /// The `cnf.jkt` of an access token (read without verification: the server signed it).
    static func confirmation(_ accessToken: String) throws -> String? {
        let payload = try #require(Base64URL.decode(accessToken.split(separator: ".")[1]))
        return try JSONValue(parsing: payload)["cnf"]?["jkt"]?.stringValue
    }

    @Test("a login with a proof gets DPoP tokens: token_type DPoP, cnf.jkt, refresh family bound to the key")
    func boundLogin() async throws {
        let harness = try PasskeyHarness()
        let prover = try DPoPProver()
        let response = try await Self.signUp(harness, prover: prover)
        #expect(response.status == 200, "\(response.bodyText)")
        let body = try response.jsonValue()
        #expect(body["token_type"]?.stringValue == "DPoP")
        let access = try #require(body["access_token"]?.stringValue)
        #expect(try Self.confirmation(access) == prover.thumbprint)
        let refresh = try #require(body["refresh_token"]?.stringValue)
        let record = try await harness.context.store.read {
            try $0.refreshToken(hash: try Tokens.RefreshToken(presented: refresh).hash)
        }
        #expect(record?.dpopThumbprint == prover.thumbprint)
        // Without a proof nothing changes: Bearer, no cnf, an unbound family.
        let plain = try await Self.signUp(harness, prover: nil).jsonValue()
        #expect(plain["token_type"]?.stringValue == "Bearer")
        #expect(try Self.confirmation(try #require(plain["access_token"]?.stringValue)) == nil)
    }

    @Test("/userinfo takes a bound token with DPoP and a proof by its key carrying ath, nothing less (RFC 9449 §7)")
    func resource() async throws {
        let harness = try PasskeyHarness()
        let prover = try DPoPProver()
        let access = try #require(
            try await Self.signUp(harness, prover: prover).jsonValue()["access_token"]?.stringValue)
        let accepted = try await Self.userinfo(harness, access, prover: prover)
        #expect(accepted.status == 200, "\(accepted.bodyText)")
        // RFC 9449 §7.2: a bound token presented as a bearer token is refused, with the Bearer challenge.
        let asBearer = try await Self.userinfo(harness, access, scheme: "Bearer", prover: nil)
        #expect(asBearer.status == 401)
        #expect(asBearer.headers["WWW-Authenticate"]?.hasPrefix("Bearer ") == true)
        #expect(harness.counted("invalid_token:token_dpop_bound_as_bearer"))
        // §7.1: the DPoP scheme without a proof, with another key's proof, or with a proof for another token.
        let refusals: [(DPoPProver?, String?, String)] = [
            (nil, nil, "dpop_proof_missing"), (try DPoPProver(), nil, "dpop_key_mismatch"),
            (prover, "another-token", "dpop_access_token_hash"),
        ]
        for (other, proofToken, logCode) in refusals {
            let refused = try await Self.userinfo(harness, access, prover: other, proofToken: proofToken)
            #expect(refused.status == 401)
            #expect(refused.errorCode == "invalid_dpop_proof")
            #expect(
                refused.headers["WWW-Authenticate"]
                    == #"DPoP algs="ES256 EdDSA", error="invalid_dpop_proof", error_description="The DPoP proof is invalid.""#
            )
            #expect(harness.counted("invalid_dpop_proof:\(logCode)"), "\(logCode)")
        }
        // An unbound token under the DPoP scheme is not a DPoP token.
        let plain = try #require(try await Self.signUp(harness, prover: nil).jsonValue()["access_token"]?.stringValue)
        let unbound = try await Self.userinfo(harness, plain, prover: prover)
        #expect(unbound.status == 401)
        #expect(
            unbound.headers["WWW-Authenticate"]?.hasPrefix(#"DPoP algs="ES256 EdDSA", error="invalid_token""#) == true)
    }

    @Test("a bound refresh token needs a proof by its key, and a refusal leaves it usable (RFC 9449 §5)")
    func refresh() async throws {
        let harness = try PasskeyHarness()
        let prover = try DPoPProver()
        let first = try #require(
            try await Self.signUp(harness, prover: prover).jsonValue()["refresh_token"]?.stringValue)
        let withoutProof = try await Self.refresh(harness, first, prover: nil)
        #expect(withoutProof.status == 400)
        #expect(withoutProof.errorCode == "invalid_dpop_proof")
        #expect(harness.counted("invalid_dpop_proof:dpop_refresh_proof_missing"))
        let otherKey = try await Self.refresh(harness, first, prover: try DPoPProver())
        #expect(otherKey.errorCode == "invalid_dpop_proof")
        #expect(harness.counted("invalid_dpop_proof:dpop_refresh_key_mismatch"))
        // Both refusals are in the audit log: a bound token presented without its key is what a thief's use is.
        let refusals = try await RefreshTokenGrantTests.refreshEvents(harness, token: first)
        #expect(refusals.map(\.reasonCode) == ["dpop_refresh_key_mismatch", "dpop_refresh_proof_missing"])
        // Not spent by the refusals: the holder of the key refreshes, and the new token is bound too.
        let rotated = try await Self.refresh(harness, first, prover: prover)
        #expect(rotated.status == 200, "\(rotated.bodyText)")
        let body = try rotated.jsonValue()
        #expect(body["token_type"]?.stringValue == "DPoP")
        #expect(try Self.confirmation(try #require(body["access_token"]?.stringValue)) == prover.thumbprint)
        let second = try #require(body["refresh_token"]?.stringValue)
        #expect(try await Self.refresh(harness, second, prover: nil).errorCode == "invalid_dpop_proof")
    }

    @Test("a proof is accepted once: its replay is refused (jti per key, RFC 9449 §11.1)")
    func replay() async throws {
        let harness = try PasskeyHarness()
        let prover = try DPoPProver()
        let proof = try prover.proof("POST", Self.tokenURL, now: harness.clock.now())
        #expect(try await Self.signUp(harness, prover: nil, proofs: [proof]).status == 200)
        let replayed = try await Self.signUp(harness, prover: nil, proofs: [proof])
        #expect(replayed.status == 400)
        #expect(replayed.errorCode == "invalid_dpop_proof")
        #expect(harness.counted("invalid_dpop_proof:dpop_replayed"))
    }

    @Test("two DPoP headers, a bad proof, or none for a require_dpop client are refused before the grant")
    func tokenEndpointRefusals() async throws {
        let harness = try PasskeyHarness([
            "PASSKEYD_CLIENTS":
                #"[{"client_id": "app", "grant_types": ["urn:okta:params:oauth:grant-type:webauthn", "refresh_token"], "require_dpop": true}]"#
        ])
        let prover = try DPoPProver()
        let now = harness.clock.now()
        let two = try await Self.signUp(
            harness, prover: nil,
            proofs: [
                try prover.proof("POST", Self.tokenURL, now: now), try prover.proof("POST", Self.tokenURL, now: now),
            ])
        #expect(two.errorCode == "invalid_dpop_proof")
        #expect(harness.counted("invalid_dpop_proof:dpop_several_headers"))
        let wrongURI = try await Self.signUp(
            harness, prover: nil, proofs: [try prover.proof("POST", Self.userinfoURL, now: now)])
        #expect(wrongURI.errorCode == "invalid_dpop_proof")
        #expect(harness.counted("invalid_dpop_proof:dpop_uri_mismatch"))
        let stale = try await Self.signUp(
            harness, prover: nil, proofs: [try prover.proof("POST", Self.tokenURL, now: now.addingTimeInterval(-61))])
        #expect(stale.errorCode == "invalid_dpop_proof")
        #expect(harness.counted("invalid_dpop_proof:dpop_stale"))
        let none = try await Self.signUp(harness, prover: nil)
        #expect(none.status == 400)
        #expect(none.errorCode == "invalid_dpop_proof")
        #expect(harness.counted("invalid_dpop_proof:dpop_required"))
        #expect(try await Self.signUp(harness, prover: prover).status == 200)
    }

    @Test("with dpop.require_nonce, a proof without the nonce gets use_dpop_nonce and a DPoP-Nonce to retry with")
    func nonce() async throws {
        let harness = try PasskeyHarness(["PASSKEYD_DPOP_REQUIRE_NONCE": "true"])
        let prover = try DPoPProver()
        let first = try await Self.signUp(harness, prover: prover)
        #expect(first.status == 400)
        #expect(first.errorCode == "use_dpop_nonce")
        let nonce = try #require(first.headers["DPoP-Nonce"])
        let wrong = try await Self.signUp(harness, prover: prover, nonce: "not-the-nonce")
        #expect(wrong.errorCode == "use_dpop_nonce")
        let retried = try await Self.signUp(harness, prover: prover, nonce: nonce)
        #expect(retried.status == 200, "\(retried.bodyText)")
        #expect(retried.headers["DPoP-Nonce"] != nil)
        // Still good one window later; not two.
        harness.clock.advance(300)
        #expect(try await Self.signUp(harness, prover: prover, nonce: nonce).status == 200)
        harness.clock.advance(300)
        #expect(try await Self.signUp(harness, prover: prover, nonce: nonce).errorCode == "use_dpop_nonce")
    }

    @Test("a nonce handed out before a signing-key rotation still works after it; new nonces come under the new key")
    func nonceAcrossRotation() async throws {
        let harness = try PasskeyHarness(["PASSKEYD_DPOP_REQUIRE_NONCE": "true"])
        let prover = try DPoPProver()
        let before = try #require(try await Self.signUp(harness, prover: prover).headers["DPoP-Nonce"])
        _ = try await TokenService.rotateKeys(store: harness.context.store, now: harness.clock.now(), immediately: true)
        harness.clock.advance(TokenService.reloadInterval + 1)  // the node now signs with the new key
        let accepted = try await Self.signUp(harness, prover: prover, nonce: before)
        #expect(accepted.status == 200, "\(accepted.bodyText)")
        let after = try #require(accepted.headers["DPoP-Nonce"])
        #expect(after != before)
        #expect(try await Self.signUp(harness, prover: prover, nonce: after).status == 200)
        // The old key's nonces still age out with their windows.
        harness.clock.advance(600)
        #expect(try await Self.signUp(harness, prover: prover, nonce: before).errorCode == "use_dpop_nonce")
    }

    @Test("at a resource a missing nonce is 401 use_dpop_nonce with a DPoP challenge and DPoP-Nonce (RFC 9449 §9)")
    func resourceNonce() async throws {
        let harness = try PasskeyHarness(["PASSKEYD_DPOP_REQUIRE_NONCE": "true"])
        let prover = try DPoPProver()
        let nonce = try #require(try await Self.signUp(harness, prover: prover).headers["DPoP-Nonce"])
        let access = try #require(
            try await Self.signUp(harness, prover: prover, nonce: nonce).jsonValue()["access_token"]?.stringValue)
        let refused = try await Self.userinfo(harness, access, prover: prover)
        #expect(refused.status == 401)
        #expect(refused.errorCode == "use_dpop_nonce")
        #expect(refused.headers["WWW-Authenticate"]?.contains(#"error="use_dpop_nonce""#) == true)
        let fresh = try #require(refused.headers["DPoP-Nonce"])
        let proof = try prover.proof(
            "GET", Self.userinfoURL, now: harness.clock.now(), accessToken: access, nonce: fresh)
        let accepted = await harness.client.get(
            "/userinfo", headers: ["Authorization": "DPoP \(access)", "DPoP": proof])
        #expect(accepted.status == 200, "\(accepted.bodyText)")
    }

    @Test("two nodes on one database: a proof replayed to the other node is refused; a node's nonce works on the other")
    func twoNodes() async throws {
        let store = MemoryStore()
        let settings = ["PASSKEYD_DPOP_REQUIRE_NONCE": "true"]
        let first = try PasskeyHarness(settings, store: store)
        let second = try PasskeyHarness(settings, store: store)
        let prover = try DPoPProver()
        // The nonce comes from the first node; the second accepts it (the key is derived from the shared signing key).
        let nonce = try #require(try await Self.signUp(first, prover: prover).headers["DPoP-Nonce"])
        let proof = try prover.proof("POST", Self.tokenURL, now: first.clock.now(), nonce: nonce)
        let accepted = try await Self.signUp(second, prover: nil, proofs: [proof])
        #expect(accepted.status == 200, "\(accepted.bodyText)")
        let replayed = try await Self.signUp(first, prover: nil, proofs: [proof])
        #expect(replayed.errorCode == "invalid_dpop_proof")
        #expect(first.counted("invalid_dpop_proof:dpop_replayed"))
    }

    @Test("a device key as the DPoP key: it refreshes while active; revoked, the bound family stops refreshing")
    func deviceKeyAsDPoPKey() async throws {
        let harness = try PasskeyHarness()
        let device = try TestDevice()
        let prover = try DPoPProver(key: device.key)
        let body = try await Self.signUp(harness, prover: prover).jsonValue()
        let access = try #require(body["access_token"]?.stringValue)
        let refresh = try #require(body["refresh_token"]?.stringValue)
        func headers(_ method: String, _ path: String) throws -> HTTPHeaders {
            [
                "Authorization": "DPoP \(access)",
                "DPoP": try prover.proof(
                    method, "https://auth.example.com\(path)", now: harness.clock.now(), accessToken: access),
            ]
        }
        // The device-key endpoints take the DPoP-bound token too.
        let registered = await harness.client.post(
            "/device-keys", json: device.registration, headers: try headers("POST", "/device-keys"))
        #expect(registered.status == 201, "\(registered.bodyText)")
        let keyID = try #require(try registered.jsonValue()["key_id"]?.stringValue)
        let refreshed = try await Self.refresh(harness, refresh, prover: prover)
        #expect(refreshed.status == 200, "\(refreshed.bodyText)")
        let next = try #require(try refreshed.jsonValue()["refresh_token"]?.stringValue)
        let revoked = await harness.client.delete(
            "/device-keys/\(keyID)", headers: try headers("DELETE", "/device-keys/\(keyID)"))
        #expect(revoked.status == 200 || revoked.status == 204, "\(revoked.bodyText)")
        let refused = try await Self.refresh(harness, next, prover: prover)
        #expect(refused.errorCode == "invalid_dpop_proof")
        #expect(harness.counted("invalid_dpop_proof:dpop_device_key_not_active"))
    }
}
