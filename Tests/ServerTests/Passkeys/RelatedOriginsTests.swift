import HTTP
import JSON
import TestSupport
import Testing

@testable import Endpoints
@testable import Service

/// Related Origin Requests (WebAuthn L3 §5.11): a realm's `related_origins` are accepted in the client data of that
/// realm's ceremonies and published at `GET /.well-known/webauthn` for the RP ID's host.
@Suite("Related origins")
struct RelatedOriginsTests {
    /// The harness's realms with related origins: `main` (the default) has two, `phones` one of its own.
    static let realms: [String: String] = [
        "PASSKEYD_REALMS": """
        [{"name": "main", "default": true, "identifiers": {"email": "required"},
          "related_origins": ["https://example.co.uk", "https://shop.example.net:8443"]},
         {"name": "phones", "identifiers": {"phone_number": "required"},
          "related_origins": ["https://phones.example.org", "https://example.co.uk"]}]
        """
    ]

    @Test("a sign-up and a login from a related origin of the realm are accepted")
    func relatedOriginCeremonies() async throws {
        let harness = try PasskeyHarness(Self.realms)
        var authenticator = Passkey()
        authenticator.origin = "https://example.co.uk"
        _ = try await harness.signUp(&authenticator)
        authenticator.origin = "https://shop.example.net:8443"
        let login = try await harness.logIn(&authenticator)
        #expect(login.status == 200, "\(login.bodyText)")
    }

    @Test(
        "a login from an unrelated origin, or from another realm's related origin, is refused",
        arguments: ["https://evil.example", "https://phones.example.org", "https://shop.example.net"])
    func unrelatedOrigin(origin: String) async throws {
        let harness = try PasskeyHarness(Self.realms)
        var authenticator = Passkey()
        _ = try await harness.signUp(&authenticator)
        authenticator.origin = origin
        let login = try await harness.logIn(&authenticator)
        #expect(login.status == 403)
        #expect(login.errorCode == "invalid_grant")
        #expect(harness.counted("webauthn_failure:origin_mismatch"))
    }

    @Test("a related origin is no origin of the realms that do not list it")
    func notWithoutConfiguration() async throws {
        let harness = try PasskeyHarness()
        var authenticator = Passkey()
        authenticator.origin = "https://example.co.uk"
        let challenge = try await harness.registerChallenge(email: "bob@example.com").jsonValue()
        let options = try #require(challenge["authn_params_public_key"])
        let session = try #require(challenge["auth_session"]?.stringValue)
        let signUp = await harness.token(session: session, response: try authenticator.register(options))
        #expect(signUp.status == 403)
        #expect(harness.counted("webauthn_failure:origin_mismatch"))
    }

    @Test("the hosted page's origins in a realm are the issuer's and the realm's related origins, no client's")
    func hostedOrigins() throws {
        let harness = try PasskeyHarness(Self.realms)
        let verifier = CeremonyVerifier(context: harness.context)
        let main = verifier.hostedOriginPolicy(realm: "main")
        #expect(main.allows(origin: "https://auth.example.com"))
        #expect(main.allows(origin: "https://shop.example.net:8443"))
        #expect(!main.allows(origin: "https://phones.example.org"))
        #expect(!main.allows(origin: "https://example.com"))
        #expect(verifier.hostedOriginPolicy(realm: "phones").allows(origin: "https://phones.example.org"))
        #expect(!verifier.hostedOriginPolicy(realm: "nope").allows(origin: "https://example.co.uk"))
    }

    @Test("GET /.well-known/webauthn lists every realm's related origins once, as JSON any origin may read")
    func document() async throws {
        let harness = try PasskeyHarness(Self.realms)
        for host in ["example.com", "EXAMPLE.com:443", "example.com."] {
            let response = await harness.client.get(
                "/.well-known/webauthn", headers: ["Host": host, "Origin": "https://example.co.uk"])
            #expect(response.status == 200, "\(host)")
            #expect(response.headers["Content-Type"] == "application/json")
            #expect(response.headers["Access-Control-Allow-Origin"] == "*")
            let origins = try response.jsonValue()["origins"]?.arrayValue?.compactMap(\.stringValue)
            #expect(
                origins == ["https://example.co.uk", "https://shop.example.net:8443", "https://phones.example.org"])
        }
    }

    @Test(
        "GET /.well-known/webauthn is 404 for a host other than the RP ID's, and without related origins",
        arguments: [(true, "auth.example.com"), (true, "example.co.uk"), (true, ""), (false, "example.com")])
    func notFound(configured: Bool, host: String) async throws {
        let harness = try PasskeyHarness(configured ? Self.realms : [:])
        let headers: HTTPHeaders = host.isEmpty ? [:] : ["Host": host]
        let response = await harness.client.get("/.well-known/webauthn", headers: headers)
        #expect(response.status == 404)
        #expect(response.errorCode == "not_found")
    }
}
