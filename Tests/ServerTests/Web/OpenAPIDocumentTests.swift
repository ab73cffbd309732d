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

/// docs/openapi.yaml against the routers: every route a listener registers is documented, and every documented
/// operation is a route, so an endpoint added later cannot stay undocumented (nor a removed one documented).
@Suite("OpenAPI document")
struct OpenAPIDocumentTests {
    private static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The document's operations as `METHOD path`, with their tags.
    private static func operations() throws -> [String: [String]] {
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(EmbeddedAssets.openAPIJSON.utf8)) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        var operations: [String: [String]] = [:]
        for (path, item) in paths {
            for method in ["get", "put", "post", "delete", "options", "head", "patch", "trace"] {
                guard let operation = item[method] as? [String: Any] else { continue }
                operations["\(method.uppercased()) \(path)"] = operation["tags"] as? [String] ?? []
            }
        }
        return operations
    }

    private static func names(_ routes: [(method: HTTPMethod, pattern: String)]) -> Set<String> {
        Set(routes.map { "\($0.method.rawValue) \($0.pattern)" })
    }

    @Test("every route of both listeners (demo on) is an operation of the document and every operation a route")
    func routesAreDocumented() throws {
        let context = ServerContext(
            configuration: try TestConfiguration.make(["PASSKEYD_WEB_DEMO": "true"]), store: MemoryStore())
        let publicRoutes = Self.names(Application(context: context).routes)
        let adminRoutes = Self.names(AdminApplication(context: context).routes)
        let operations = try Self.operations()
        let documented = Set(operations.keys)
        #expect(publicRoutes.subtracting(documented).sorted() == [], "routes missing from docs/openapi.yaml")
        #expect(adminRoutes.subtracting(documented).sorted() == [], "admin routes missing from docs/openapi.yaml")
        #expect(
            documented.subtracting(publicRoutes.union(adminRoutes)).sorted() == [],
            "docs/openapi.yaml documents operations no listener serves")
        // The `admin` tag says where an operation is served: exactly the admin listener's routes that the public
        // listener does not have; `demo` marks the demo web app's.
        let taggedAdmin = Set(operations.filter { $0.value.contains("admin") }.keys)
        #expect(taggedAdmin == adminRoutes.subtracting(publicRoutes))
        let taggedDemo = Set(operations.filter { $0.value.contains("demo") }.keys)
        #expect(
            taggedDemo == ["GET /demo/", "GET /demo/demo.js", "GET /demo/webauthn-json.js", "GET /demo/demo.css"])
        #expect(operations.values.allSatisfy { !$0.isEmpty }, "every operation has a tag")
    }

    @Test(
        "the embedded document is docs/openapi.json, and the embedded demo, hosted page and shared files are web/demo's, web/hosted's and web/shared's, byte for byte"
    )
    func embeddedAssetsMatchTheirSources() throws {
        func file(_ path: String) throws -> String {
            try String(contentsOf: Self.repositoryRoot.appendingPathComponent(path), encoding: .utf8)
        }
        #expect(EmbeddedAssets.openAPIJSON == (try file("docs/openapi.json")), "run scripts/dev/embed_assets.py")
        #expect(EmbeddedAssets.demoPage == (try file("web/demo/index.html")), "run scripts/dev/embed_assets.py")
        #expect(EmbeddedAssets.demoScript == (try file("web/demo/demo.js")), "run scripts/dev/embed_assets.py")
        #expect(EmbeddedAssets.demoStyle == (try file("web/demo/demo.css")), "run scripts/dev/embed_assets.py")
        #expect(
            EmbeddedAssets.hostedLoginPage == (try file("web/hosted/login.html")), "run scripts/dev/embed_assets.py")
        #expect(
            EmbeddedAssets.hostedLoginScript == (try file("web/hosted/login.js")), "run scripts/dev/embed_assets.py")
        #expect(
            EmbeddedAssets.hostedLoginStyle == (try file("web/hosted/login.css")), "run scripts/dev/embed_assets.py")
        #expect(
            EmbeddedAssets.webAuthnJSONScript == (try file("web/shared/webauthn-json.js")),
            "run scripts/dev/embed_assets.py")
    }

    @Test("GET /openapi.json is on the admin listener by default, on the public one or nowhere when configured")
    func listener() async throws {
        func answers(_ listener: String?) async throws -> (public: Int, admin: Int) {
            let overrides = listener.map { ["PASSKEYD_OPENAPI_LISTENER": $0] } ?? [:]
            let context = ServerContext(configuration: try TestConfiguration.make(overrides), store: MemoryStore())
            let publicStatus = await TestClient(responder: Application(context: context)).get("/openapi.json").status
            let adminStatus = await TestClient(responder: AdminApplication(context: context)).get("/openapi.json")
                .status
            return (publicStatus, adminStatus)
        }
        #expect(try await answers(nil) == (404, 200))
        #expect(try await answers("admin") == (404, 200))
        #expect(try await answers("public") == (200, 404))
        #expect(try await answers("off") == (404, 404))

        let context = ServerContext(configuration: try TestConfiguration.make(), store: MemoryStore())
        let response = await TestClient(responder: AdminApplication(context: context)).get("/openapi.json")
        #expect(response.headers["Content-Type"] == "application/json")
        let document = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        #expect(document?["openapi"] as? String == "3.1.0")
    }

    @Test("openapi.listener other than admin, public or off stops the start")
    func invalidListener() throws {
        #expect(throws: ConfigurationError.self) {
            try TestConfiguration.make(["PASSKEYD_OPENAPI_LISTENER": "both"])
        }
    }
}
