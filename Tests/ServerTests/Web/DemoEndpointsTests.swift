import Foundation
import HTTP
import Storage
import TestSupport
import Testing

@testable import Assets
@testable import Commands
@testable import Configuration
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("Demo web app")
struct DemoEndpointsTests {
    private static func client(_ overrides: [String: String]) throws -> TestClient {
        let context = ServerContext(configuration: try TestConfiguration.make(overrides), store: MemoryStore())
        return TestClient(responder: Application(context: context))
    }

    @Test("off by default: no /demo/, and the issuer's origin is not a web origin")
    func offByDefault() async throws {
        let configuration = try TestConfiguration.make()
        #expect(configuration.web.demo == nil)
        #expect(!configuration.webOrigins.contains("https://auth.example.com"))
        #expect(await (try Self.client([:])).get("/demo/").status == 404)
    }

    @Test("web.demo serves the page, its script and style with a strict CSP and the client id in the page")
    func servesTheApp() async throws {
        let client = try Self.client(["PASSKEYD_WEB_DEMO": "true"])
        let page = await client.get("/demo/")
        #expect(page.status == 200)
        #expect(page.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(page.headers["Content-Security-Policy"]?.contains("script-src 'self';") == true)
        #expect(page.headers["Content-Security-Policy"]?.contains("unsafe-inline") == false)
        #expect(page.headers["X-Content-Type-Options"] == "nosniff")
        #expect(page.headers["X-Frame-Options"] == "DENY")
        let html = String(decoding: page.body, as: UTF8.self)
        #expect(html.contains(#"<meta name="passkeyd-client-id" content="app">"#))
        #expect(!html.contains("{{CLIENT_ID}}"))
        // No inline script: every <script> element loads a file.
        #expect(html.components(separatedBy: "<script").dropFirst().allSatisfy { $0.hasPrefix(" src=") })
        let script = await client.get("/demo/demo.js")
        #expect(script.status == 200)
        #expect(script.headers["Content-Type"] == "text/javascript; charset=utf-8")
        #expect(String(decoding: script.body, as: UTF8.self) == EmbeddedAssets.demoScript)
        #expect(await client.get("/demo/demo.css").headers["Content-Type"] == "text/css; charset=utf-8")
        // WebAuthn's JSON forms: the hosted page's file, loaded before the demo's script.
        #expect(
            html.contains(
                "<script src=\"webauthn-json.js\" defer></script>\n<script src=\"demo.js\" defer></script>"))
        let shared = await client.get("/demo/webauthn-json.js")
        #expect(shared.status == 200)
        #expect(shared.headers["Content-Type"] == "text/javascript; charset=utf-8")
        #expect(String(decoding: shared.body, as: UTF8.self) == EmbeddedAssets.webAuthnJSONScript)
        #expect(!EmbeddedAssets.demoScript.contains("function fromBase64URL"))
    }

    @Test("with the demo on, the server's own origin may call the passkey endpoints (CORS) and sign ceremonies")
    func ownOriginIsAWebOrigin() async throws {
        let configuration = try TestConfiguration.make(["PASSKEYD_WEB_DEMO": "true"])
        #expect(configuration.web.demo == WebConfiguration.Demo(clientID: "app", origin: "https://auth.example.com"))
        #expect(configuration.webOrigins.contains("https://auth.example.com"))
        let client = try Self.client(["PASSKEYD_WEB_DEMO": "true"])
        let preflight = await client.execute(
            .options, "/passkey/register",
            headers: ["Origin": "https://auth.example.com", "Access-Control-Request-Method": "POST"])
        #expect(preflight.status == 204)
        #expect(preflight.headers["Access-Control-Allow-Origin"] == "https://auth.example.com")
    }

    @Test("web.demo refuses a client without the webauthn grant, an unknown client, an issuer outside the RP ID")
    func refusals() throws {
        #expect(throws: ConfigurationError.self) {
            try TestConfiguration.make(["PASSKEYD_WEB_DEMO": "true", "PASSKEYD_WEB_DEMO_CLIENT_ID": "nobody"])
        }
        #expect(throws: ConfigurationError.self) {
            try TestConfiguration.make(["PASSKEYD_WEB_DEMO": "true", "PASSKEYD_ISSUER": "https://auth.other.test/"])
        }
        // Without the demo, the same issuer is fine (the RP ID does not bind the issuer).
        _ = try TestConfiguration.make(["PASSKEYD_ISSUER": "https://auth.other.test/"])
    }

    @Test("the client id is escaped as HTML attribute text")
    func escaping() {
        #expect(DemoEndpoints.escapedAttribute(#"a"><script>&'"#) == "a&quot;&gt;&lt;script&gt;&amp;&#39;")
    }
}
