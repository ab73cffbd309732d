import HTTP
import JSON
import TestSupport
import Testing

@testable import Endpoints
@testable import Service

/// The hosted page served under a related origin of the realm (WebAuthn L3 §5.11; a reverse proxy forwarding to
/// passkeyd): its POSTs' `Origin` and its ceremonies' client data are accepted; another origin's are not.
@Suite("Hosted login from a related origin")
struct HostedRelatedOriginTests {
    static let related = "https://login.example.co.uk"
    static let realms: [String: String] = [
        "PASSKEYD_REALMS": """
        [{"name": "main", "default": true, "identifiers": {"email": "required"},
          "related_origins": ["\(related)"]}]
        """
    ]

    /// A sign-up on a fresh page whose POSTs carry `requestOrigin` and whose authenticator reports `clientOrigin`:
    /// the `/u/passkey/complete` response (or the refused `/u/passkey/register` one).
    func signUp(_ harness: HostedPageHarness, requestOrigin: String, clientOrigin: String) async throws -> Response {
        let page = try HostedPageHarness.page(await harness.authorize())
        var passkey = Passkey()
        passkey.origin = clientOrigin
        let start = await harness.post(
            "/u/passkey/register", [JSONMember(key: "identifier", value: "rory@example.com")], page: page,
            origin: requestOrigin)
        guard start.status == 200 else { return start }
        let started = try start.jsonValue()
        return await harness.post(
            "/u/passkey/complete",
            [
                JSONMember(key: "auth_session", value: try #require(started["auth_session"])),
                JSONMember(
                    key: "authn_response", value: try passkey.register(try #require(started["authn_params_public_key"]))
                ),
            ], page: page, origin: requestOrigin)
    }

    @Test("a sign-up on the page under a related origin completes with a code")
    func relatedOrigin() async throws {
        let harness = try HostedPageHarness(Self.realms)
        let response = try await signUp(harness, requestOrigin: Self.related, clientOrigin: Self.related)
        #expect(response.status == 200, "\(response.bodyText)")
        let redirect = try #require(try response.jsonValue()["redirect_to"]?.stringValue)
        #expect(try HostedPageHarness.query(redirect)["code"] != nil)
    }

    @Test("without the realm's related origin, that origin's POSTs fail the CSRF check")
    func notRelated() async throws {
        let harness = try HostedPageHarness()
        let response = try await signUp(harness, requestOrigin: Self.related, clientOrigin: Self.related)
        #expect(response.status == 403)
        #expect(try response.jsonValue()["error_description"]?.stringValue == "CSRF check failed")
    }

    @Test("on the page, a ceremony whose client data names an unrelated origin is refused")
    func unrelatedClientData() async throws {
        let harness = try HostedPageHarness(Self.realms)
        let response = try await signUp(
            harness, requestOrigin: HostedPageHarness.origin, clientOrigin: "https://evil.example")
        #expect(response.status == 403)
        #expect(response.errorCode == "invalid_grant")
    }
}
