import HTTP
import JSON
import TestSupport
import Testing

@Suite("Router (no sockets)")
struct RouterTests {
    static let client: TestClient = {
        var router = Router()
        router.add(.get, "/healthz") { _ in .text("ok") }
        router.add(.get, "/device-keys/{key_id}") { request in
            .json(["key_id": .string(request.pathParameters["key_id"] ?? ""), "route": .string(request.route ?? "")])
        }
        router.add(.delete, "/device-keys/{key_id}") { _ in .empty() }
        router.add(.post, "/device-keys/{key_id}/challenges") { request in
            .json(["key_id": .string(request.pathParameters["key_id"] ?? "")], status: 201)
        }
        router.add(.get, "/device-keys/mine") { _ in .text("literal") }
        router.add(.get, "/search") { request in .text(request.query["q"] ?? "-") }
        return TestClient(responder: router)
    }()

    @Test("a GET reaches its handler; the response carries the route pattern")
    func routes() async {
        let response = await Self.client.get("/healthz")
        #expect(response.status == 200)
        #expect(response.bodyText == "ok")
        #expect(response.route == "/healthz")
    }

    @Test("path parameters are captured and the request knows its route")
    func pathParameters() async throws {
        let response = await Self.client.get("/device-keys/k-123")
        let body = try response.jsonValue()
        #expect(body["key_id"] == "k-123")
        #expect(body["route"] == "/device-keys/{key_id}")
        let nested = await Self.client.post("/device-keys/k%2D9/challenges", json: ["action": "x"] as JSONValue)
        #expect(nested.status == 201)
        #expect(try nested.jsonValue()["key_id"] == "k-9")
    }

    @Test("a literal segment beats a parameter at the same position")
    func literalWins() async {
        #expect(await Self.client.get("/device-keys/mine").bodyText == "literal")
    }

    @Test("a literal route without the request's method leaves it to a parameter route that has it")
    func literalWithoutMethodFallsThrough() async {
        var router = Router()
        router.add(.get, "/device-keys/mine") { _ in .text("literal") }
        router.add(.delete, "/device-keys/{key_id}") { request in .text(request.pathParameters["key_id"] ?? "") }
        let client = TestClient(responder: router)
        #expect(await client.get("/device-keys/mine").bodyText == "literal")
        #expect(await client.head("/device-keys/mine").status == 200)
        let deleted = await client.delete("/device-keys/mine")
        #expect(deleted.bodyText == "mine")
        #expect(deleted.route == "/device-keys/{key_id}")
        #expect(await client.post("/device-keys/mine", json: [:] as JSONValue).status == 405)
    }

    @Test("query parameters are decoded ('+' as space, percent-escapes)")
    func query() async {
        #expect(await Self.client.get("/search?q=a+b%26c&q=second").bodyText == "a b&c")
    }

    @Test("an unknown path is a 404 JSON error with route left unset")
    func notFound() async throws {
        for path in ["/nope", "/healthz/", "/device-keys", "/device-keys//challenges", "healthz"] {
            let response = await Self.client.get(path)
            #expect(response.status == 404, "\(path)")
            #expect(response.errorCode == "not_found")
            #expect(response.headers["Content-Type"] == "application/json")
            #expect(response.route == nil)
        }
    }

    @Test("a known path with another method is a 405 whose Allow lists the methods")
    func methodNotAllowed() async {
        let response = await Self.client.execute(.put, "/device-keys/abc")
        #expect(response.status == 405)
        #expect(response.errorCode == "method_not_allowed")
        #expect(response.headers["Allow"] == "GET, HEAD, DELETE")
        let post = await Self.client.execute(.get, "/device-keys/abc/challenges")
        #expect(post.headers["Allow"] == "POST")
    }

    @Test("HEAD runs the GET handler and sends no body")
    func head() async {
        let response = await Self.client.head("/healthz")
        #expect(response.status == 200)
        #expect(response.body.isEmpty)
        #expect(response.headers["Content-Type"] == "text/plain; charset=utf-8")
    }

    @Test("the test client echoes a sane X-Request-Id and replaces an unsafe one")
    func requestID() async {
        let echoed = await Self.client.get("/healthz", headers: ["X-Request-Id": "req-1"])
        #expect(echoed.headers["x-request-id"] == "req-1")
        let replaced = await Self.client.get("/healthz", headers: ["X-Request-Id": "bad\nid"])
        #expect(replaced.headers["X-Request-Id"].map(RequestID.isAcceptable) == true)
        #expect(replaced.headers["X-Request-Id"] != "bad\nid")
    }

    @Test("methods(for:) names the most specific matching route and every method on the path")
    func methodsForPath() throws {
        let router = Self.client.responder as? Router
        let resolved = try #require(router?.methods(for: "/device-keys/k-1"))
        #expect(resolved.route == "/device-keys/{key_id}")
        #expect(resolved.methods == [.get, .head, .delete])
        #expect(router?.methods(for: "/device-keys/mine")?.route == "/device-keys/mine")
        #expect(router?.methods(for: "/nope") == nil)
        #expect(router?.methods(for: "*") == nil)
    }

    @Test("route(for:) names the route respond(to:) labels the answer with, before any handler runs")
    func routeForRequest() {
        var router = Router()
        router.add(.get, "/device-keys/{key_id}") { _ in .empty() }
        router.add(.get, "/device-keys/mine") { _ in .empty() }
        #expect(router.route(for: Request(method: .get, target: "/device-keys/7")) == "/device-keys/{key_id}")
        #expect(router.route(for: Request(method: .head, target: "/device-keys/mine")) == "/device-keys/mine")
        // The 405's label: the path's route.
        #expect(router.route(for: Request(method: .post, target: "/device-keys/7")) == "/device-keys/{key_id}")
        #expect(router.route(for: Request(method: .get, target: "/nope")) == nil)
    }

    @Test("a handler's 503 gets Retry-After; one with its own delay and every other status are left alone")
    func retryAfterRule() async {
        var router = Router()
        router.add(.get, "/down") { _ in .error(status: 503, error: "temporarily_unavailable", description: "x") }
        router.add(.get, "/own") { _ in
            var response = Response.error(status: 503, error: "temporarily_unavailable", description: "x")
            response.headers.replace(name: "Retry-After", value: "30")
            return response
        }
        router.add(.get, "/busy") { _ in .error(status: 500, error: "server_error", description: "x") }
        let client = TestClient(responder: router)
        #expect(await client.get("/down").headers["Retry-After"] == "1")
        #expect(await client.get("/own").headers["Retry-After"] == "30")
        #expect(await client.get("/busy").headers["Retry-After"] == nil)
        #expect(await client.get("/healthz").headers["Retry-After"] == nil)
    }
}
