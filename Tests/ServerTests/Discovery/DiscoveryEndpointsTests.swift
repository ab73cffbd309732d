import Crypto
import HTTP
import JSON
import TestSupport
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("Discovery, JWKS and association files")
struct DiscoveryEndpointsTests {
    @Test("openid-configuration names the endpoints, both grants and ES256")
    func discovery() async throws {
        let harness = try PasskeyHarness()
        let response = await harness.client.get("/.well-known/openid-configuration")
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "application/json")
        let body = try response.jsonValue()
        #expect(body["issuer"]?.stringValue == "https://auth.example.com/")
        #expect(body["token_endpoint"]?.stringValue == "https://auth.example.com/oauth/token")
        #expect(body["revocation_endpoint"]?.stringValue == "https://auth.example.com/oauth/revoke")
        #expect(body["userinfo_endpoint"]?.stringValue == "https://auth.example.com/userinfo")
        #expect(body["jwks_uri"]?.stringValue == "https://auth.example.com/.well-known/jwks.json")
        #expect(
            body["grant_types_supported"] == [
                "urn:okta:params:oauth:grant-type:webauthn", "refresh_token",
                "urn:passkeyd:params:oauth:grant-type:srp6a",
                "urn:passkeyd:params:oauth:grant-type:recovery-code", "authorization_code", "client_credentials",
            ])
        #expect(body["id_token_signing_alg_values_supported"] == ["RS256", "ES256"])
    }

    @Test("an issuer configured without a trailing slash gets one in discovery and in tokens; no URL has //")
    func issuerNormalised() async throws {
        let harness = try PasskeyHarness(["PASSKEYD_ISSUER": "https://example.com"])
        let body = try await harness.client.get("/.well-known/openid-configuration").jsonValue()
        #expect(body["issuer"]?.stringValue == "https://example.com/")
        #expect(body["jwks_uri"]?.stringValue == "https://example.com/.well-known/jwks.json")
        for member in body.objectMembers ?? [] {
            guard let url = member.value.stringValue, url.hasPrefix("https://") else { continue }
            #expect(!url.dropFirst("https://".count).contains("//"), "\(member.key): \(url)")
        }
        var authenticator = Passkey()
        let tokens = try await harness.signUp(&authenticator)
        for name in ["access_token", "id_token"] {
            let jws = try #require(tokens[name]?.stringValue)
            let payload = try #require(Base64URL.decode(String(jws.split(separator: ".")[1])))
            #expect(try JSONValue(parsing: payload)["iss"]?.stringValue == "https://example.com/", "\(name)")
        }
        // The default audience is the issuer too, so the token works at /userinfo.
        let access = try #require(tokens["access_token"]?.stringValue)
        #expect(await harness.client.get("/userinfo", headers: ["Authorization": "Bearer \(access)"]).status == 200)
    }

    @Test("the JWKS publishes one P-256 (ES256) and one RSA (RS256) signing key, generated and stored on first use")
    func jwks() async throws {
        let harness = try PasskeyHarness()
        let response = await harness.client.get("/.well-known/jwks.json")
        #expect(response.status == 200)
        let keys = try #require(try response.jsonValue()["keys"]?.arrayValue)
        #expect(keys.count == 2)
        let ec = try #require(keys.first { $0["kty"]?.stringValue == "EC" })
        #expect(ec["crv"]?.stringValue == "P-256")
        #expect(ec["alg"]?.stringValue == "ES256")
        let rsa = try #require(keys.first { $0["kty"]?.stringValue == "RSA" })
        #expect(
            rsa["alg"]?.stringValue == "RS256" && rsa["e"]?.stringValue == "AQAB" && rsa["use"]?.stringValue == "sig")
        let stored = try await harness.context.store.read { try $0.signingKeys() }
        #expect(Set(stored.map(\.kid)) == Set(keys.compactMap { $0["kid"]?.stringValue }))
    }

    @Test("apple-app-site-association lists TEAMID.bundle")
    func apple() async throws {
        let harness = try PasskeyHarness()
        let response = await harness.client.get("/.well-known/apple-app-site-association")
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "application/json")
        #expect(response.bodyText == #"{"webcredentials":{"apps":["ABCDE12345.com.example.app"]}}"#)
    }

    @Test("assetlinks.json has both relations, the package and the fingerprints")
    func android() async throws {
        let harness = try PasskeyHarness()
        let response = await harness.client.get("/.well-known/assetlinks.json")
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "application/json")
        let statements = try #require(try response.jsonValue().arrayValue)
        #expect(statements.count == 1)
        #expect(
            statements.first?["relation"] == [
                "delegate_permission/common.handle_all_urls", "delegate_permission/common.get_login_creds",
            ])
        #expect(statements.first?["target"]?["namespace"]?.stringValue == "android_app")
        #expect(statements.first?["target"]?["package_name"]?.stringValue == "com.example.app")
        #expect(statements.first?["target"]?["sha256_cert_fingerprints"] == [.string(PasskeyHarness.fingerprint)])
    }
}
