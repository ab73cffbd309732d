import Synchronization
import TestSupport
import Testing

@testable import HTTP

/// `Router.respondInline(to:)`: which requests the router answers without suspending, and that each such answer is
/// the one `respond(to:)` gives.
@Suite("Router: inline answers (no sockets)")
struct RouterInlineTests {
    /// Whether `/cached` has its answer at hand, and how often its suspending handler ran.
    final class Cache: Sendable {
        let isWarm = Atomic<Bool>(false)
        let misses = Atomic<Int>(0)
    }

    static func router(_ cache: Cache = Cache()) -> Router {
        var router = Router()
        router.addInline(.get, "/inline/{id}") { request in
            var response = Response.text("inline \(request.pathParameters["id"] ?? "") \(request.route ?? "")")
            response.headers.add(name: "X-Mark", value: "yes")
            return response
        }
        router.addInline(.post, "/inline/{id}") { request in Response(status: 200, body: request.body) }
        router.addInline(.get, "/busy") { _ in .error(status: 503, error: "temporarily_unavailable", description: "x") }
        router.add(.get, "/async") { _ in .text("async") }
        router.add(
            .get, "/cached",
            inlineWhenPossible: { _ in cache.isWarm.load(ordering: .relaxed) ? .text("cached") : nil },
            otherwise: { _ in
                cache.misses.add(1, ordering: .relaxed)
                return .text("read")
            })
        return router
    }

    static func request(_ method: HTTPMethod, _ target: String, body: [UInt8] = []) -> Request {
        Request(method: method, target: target, body: body)
    }

    /// Every header field of `response`, in order.
    static func fields(_ response: Response) -> [String] {
        response.headers.map { "\($0.name): \($0.value)" }
    }

    @Test("an inline route's answer is respond(to:)'s, with the route, path parameters and Retry-After rule")
    func sameAsRespond() async throws {
        let router = Self.router()
        for (method, target, body) in [
            (HTTPMethod.get, "/inline/7", [UInt8]()), (.head, "/inline/7", []), (.post, "/inline/7", [1, 2, 3]),
            (.get, "/busy", []), (.delete, "/inline/7", []), (.get, "/nowhere", []), (.get, "*", []),
        ] {
            let request = Self.request(method, target, body: body)
            let inline = try #require(router.respondInline(to: request), "\(method) \(target)")
            let suspended = await router.respond(to: request)
            #expect(inline.status == suspended.status, "\(method) \(target)")
            #expect(Self.fields(inline) == Self.fields(suspended), "\(method) \(target)")
            #expect(inline.body == suspended.body, "\(method) \(target)")
            #expect(inline.route == suspended.route, "\(method) \(target)")
        }
        let get = try #require(router.respondInline(to: Self.request(.get, "/inline/7")))
        #expect(get.bodyText == "inline 7 /inline/{id}")
        #expect(get.route == "/inline/{id}")
        // HEAD runs the GET handler (the transport drops the body).
        #expect(router.respondInline(to: Self.request(.head, "/inline/7"))?.headers["X-Mark"] == "yes")
        #expect(router.respondInline(to: Self.request(.post, "/inline/7", body: [9]))?.body == [9])
        #expect(router.respondInline(to: Self.request(.get, "/busy"))?.headers["Retry-After"] == "1")
        let notAllowed = try #require(router.respondInline(to: Self.request(.delete, "/inline/7")))
        #expect(notAllowed.status == 405)
        #expect(notAllowed.headers["Allow"] == "GET, HEAD, POST")
        #expect(notAllowed.route == "/inline/{id}")
        #expect(router.respondInline(to: Self.request(.get, "/nowhere"))?.status == 404)
    }

    @Test("a route added with add is never answered inline; respond(to:) runs it")
    func suspendingRoute() async {
        let router = Self.router()
        #expect(router.respondInline(to: Self.request(.get, "/async")) == nil)
        #expect(router.respondInline(to: Self.request(.head, "/async")) == nil)
        #expect(await router.respond(to: Self.request(.get, "/async")).bodyText == "async")
        // Its 405 is the router's own, answered inline.
        #expect(router.respondInline(to: Self.request(.post, "/async"))?.status == 405)
    }

    @Test("a route answered inline when possible falls back to its handler when the attempt has no answer")
    func inlineWhenPossible() async throws {
        let cache = Cache()
        let router = Self.router(cache)
        #expect(router.respondInline(to: Self.request(.get, "/cached")) == nil)
        #expect(await router.respond(to: Self.request(.get, "/cached")).bodyText == "read")
        #expect(cache.misses.load(ordering: .relaxed) == 1)
        cache.isWarm.store(true, ordering: .relaxed)
        let inline = try #require(router.respondInline(to: Self.request(.get, "/cached")))
        #expect(inline.bodyText == "cached")
        #expect(inline.route == "/cached")
        #expect(await router.respond(to: Self.request(.get, "/cached")).bodyText == "cached")
        #expect(cache.misses.load(ordering: .relaxed) == 1)
    }

    @Test("registeredRoutes lists inline routes beside the others")
    func registered() {
        let routes = Self.router().registeredRoutes.map { "\($0.method.rawValue) \($0.pattern)" }
        #expect(routes.contains("GET /inline/{id}"))
        #expect(routes.contains("POST /inline/{id}"))
        #expect(routes.contains("GET /cached"))
        #expect(routes.contains("GET /async"))
    }
}
