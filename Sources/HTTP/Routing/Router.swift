/// Maps `(method, path)` to handlers. Patterns have literal segments and `{name}` parameters.
///
/// - No route matches the path: 404 `{"error":"not_found",…}`.
/// - A route matches the path but not the method: 405 with `Allow` listing the methods (RFC 9110 §15.5.6).
/// - `HEAD` runs the `GET` handler when no `HEAD` handler exists (RFC 9110 §9.3.2); the daemon drops the body.
/// - Among routes matching a path, the most specific wins (a literal segment beats a parameter).
/// - A route registered with `addInline` (CPU only: no store, no await) is answered by `respondInline(to:)`, on
///   the thread that read the request; so are the 404 and the 405. Every other route needs `respond(to:)`.
public struct Router: Responder {
    /// A request handler.
    public typealias Handler = @Sendable (Request) async -> Response
    /// A handler whose work is CPU only (no store, no await): answered on the thread that read the request.
    public typealias InlineHandler = @Sendable (Request) -> Response
    /// A handler that answers on the thread that read the request when it can (e.g. from a cache), and returns
    /// `nil` when the route's `Handler` must run instead.
    public typealias InlineAttempt = @Sendable (Request) -> Response?

    /// How one method of a route is answered.
    private enum Endpoint: Sendable {
        /// In a task (`respond(to:)` only).
        case suspending(Handler)
        /// At once, on the calling thread.
        case inline(InlineHandler)
        /// At once when the attempt answers, else in a task by the handler.
        case inlineFirst(InlineAttempt, Handler)
    }

    private struct Route: Sendable {
        let pattern: RoutePattern
        var handlers: [HTTPMethod: Endpoint]
    }

    /// What routing a request found: an answer of the router's own (404, 405), or the endpoint to run.
    private enum Resolution {
        case answered(Response)
        case routed(Request, Endpoint, route: String)
    }

    private var routes: [Route] = []
    /// The index in `routes` of each pattern without parameters, by its text: such a pattern is more specific
    /// than any other that matches the same path, so `handler(for:)` takes it without the scan when it has a
    /// handler for the method.
    private var literalRoutes: [String: Int] = [:]

    /// An empty router.
    public init() {}

    /// Registers `handler` for `method` on `pattern` (e.g. `/device-keys/{key_id}`).
    /// Registering the same method and pattern twice is a programming error.
    public mutating func add(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping Handler) {
        register(method, pattern, .suspending(handler))
    }

    /// Registers `handler`, whose work is CPU only, for `method` on `pattern`: its requests are answered on the
    /// thread that read them (`respondInline(to:)`). Moving a route between `add` and `addInline` changes nothing
    /// else about it.
    public mutating func addInline(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping InlineHandler) {
        register(method, pattern, .inline(handler))
    }

    /// Registers a route answered by `attempt` on the thread that read the request when it can, and by `handler`
    /// (in a task) when `attempt` returns `nil`.
    public mutating func add(
        _ method: HTTPMethod, _ pattern: String, inlineWhenPossible attempt: @escaping InlineAttempt,
        otherwise handler: @escaping Handler
    ) {
        register(method, pattern, .inlineFirst(attempt, handler))
    }

    private mutating func register(_ method: HTTPMethod, _ pattern: String, _ endpoint: Endpoint) {
        let parsed = RoutePattern(pattern)
        if let index = routes.firstIndex(where: { $0.pattern == parsed }) {
            precondition(routes[index].handlers[method] == nil, "\(method) \(pattern) registered twice")
            routes[index].handlers[method] = endpoint
        } else {
            if parsed.segments.allSatisfy(\.isLiteral) { literalRoutes[parsed.text] = routes.count }
            routes.append(Route(pattern: parsed, handlers: [method: endpoint]))
        }
    }

    /// Every registered method and pattern, in registration order (a route's methods by name): for a check that
    /// each one is documented (docs/openapi.yaml).
    public var registeredRoutes: [(method: HTTPMethod, pattern: String)] {
        routes.flatMap { route in
            route.handlers.keys.sorted { $0.rawValue < $1.rawValue }.map { (method: $0, pattern: route.pattern.text) }
        }
    }

    /// Routes `request` and runs the handler; sets `pathParameters` and `route` on the request the handler
    /// sees and `route` on the response. A 503 gets its `Retry-After` (`Response.applyRetryAfterRule`).
    public func respond(to request: Request) async -> Response {
        switch resolve(request) {
        case .answered(let response):
            return Self.completed(response, route: nil)
        case .routed(let routed, .inline(let handler), let route):
            return Self.completed(handler(routed), route: route)
        case .routed(let routed, .inlineFirst(let attempt, let handler), let route):
            if let response = attempt(routed) { return Self.completed(response, route: route) }
            return Self.completed(await handler(routed), route: route)
        case .routed(let routed, .suspending(let handler), let route):
            return Self.completed(await handler(routed), route: route)
        }
    }

    /// `respond(to:)`'s answer when it needs no suspension: a route registered with `addInline` (or whose
    /// `InlineAttempt` answers), the 404 and the 405; `nil` for a route whose handler must run in a task.
    public func respondInline(to request: Request) -> Response? {
        switch resolve(request) {
        case .answered(let response):
            return Self.completed(response, route: nil)
        case .routed(let routed, .inline(let handler), let route):
            return Self.completed(handler(routed), route: route)
        case .routed(let routed, .inlineFirst(let attempt, _), let route):
            return attempt(routed).map { Self.completed($0, route: route) }
        case .routed(_, .suspending, _):
            return nil
        }
    }

    /// The route pattern `respond(to:)` labels `request`'s response with: the handler's route, or for a method the
    /// path has no handler for, the path's route (the 405); `nil` when nothing matches (the 404). Known before any
    /// handler runs, so the transport can label an answer it gives in the handler's place (a deadline's 503).
    public func route(for request: Request) -> String? {
        if let best = handler(for: request) { return best.route.pattern.text }
        return methods(for: request.path)?.route
    }

    /// What every answer of the router gets, however it was produced: the route's label (`route`, when a handler
    /// answered) and a 503's `Retry-After` (`Response.applyRetryAfterRule`).
    private static func completed(_ response: Response, route: String?) -> Response {
        var response = response
        if let route { response.route = route }
        response.applyRetryAfterRule()
        return response
    }

    /// The endpoint `request` resolves to, with the request it sees (path parameters and route set), or the 404 or
    /// 405.
    private func resolve(_ request: Request) -> Resolution {
        // RFC 9112 §3.2.1: an origin-form target starts with '/'; anything else ("*", absolute-form) has no route.
        guard request.path.hasPrefix("/") else {
            return .answered(.error(status: 404, error: "not_found", description: "No resource at this path."))
        }
        if let best = handler(for: request) {
            var routed = request
            routed.pathParameters = best.parameters
            routed.route = best.route.pattern.text
            return .routed(routed, best.handler, route: best.route.pattern.text)
        }
        // No handler for this method: 405 if the path has a route at all (the rare case, so a second scan).
        guard let resolved = methods(for: request.path) else {
            return .answered(.error(status: 404, error: "not_found", description: "No resource at this path."))
        }
        var response = Response.error(
            status: 405, error: "method_not_allowed", description: "This method is not allowed on this resource.")
        response.headers.add(name: "Allow", value: resolved.methods.map(\.rawValue).joined(separator: ", "))
        response.route = resolved.route
        return .answered(response)
    }

    /// The most specific route with a handler for `request`'s method and path, that handler and the path's
    /// parameters; `nil` for none.
    private func handler(for request: Request) -> (route: Route, handler: Endpoint, parameters: [String: String])? {
        guard request.path.hasPrefix("/") else { return nil }
        if let index = literalRoutes[request.path] {
            let route = routes[index]
            if let handler = route.handlers[request.method] ?? (request.method == .head ? route.handlers[.get] : nil) {
                return (route, handler, [:])
            }
        }
        let pathSegments = request.path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        var best: (route: Route, handler: Endpoint, parameters: [String: String])?
        for route in routes {
            guard let parameters = route.pattern.match(pathSegments) else { continue }
            let handler = route.handlers[request.method] ?? (request.method == .head ? route.handlers[.get] : nil)
            guard let handler else { continue }
            if best.map({ route.pattern.isMoreSpecific(than: $0.route.pattern) }) ?? true {
                best = (route, handler, parameters)
            }
        }
        return best
    }

    /// The route `path` resolves to (its most specific pattern) and every method registered on a route matching
    /// it (`HEAD` included when `GET` is), in the order `Allow` lists them; `nil` when no route matches.
    /// For a caller answering on the router's behalf, e.g. a CORS preflight.
    public func methods(for path: String) -> (route: String, methods: [HTTPMethod])? {
        guard path.hasPrefix("/") else { return nil }
        let pathSegments = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        var matched: RoutePattern?
        var methods: [HTTPMethod] = []
        for route in routes where route.pattern.match(pathSegments) != nil {
            if matched.map({ route.pattern.isMoreSpecific(than: $0) }) ?? true { matched = route.pattern }
            methods.append(contentsOf: route.handlers.keys)
        }
        guard let matched else { return nil }
        return (matched.text, Self.orderedMethods(methods))
    }

    /// RFC 9110 §10.2.1 (`Allow`): `methods` without repeats, `HEAD` added when `GET` is there, the usual ones first in a fixed order.
    private static func orderedMethods(_ methods: [HTTPMethod]) -> [HTTPMethod] {
        var set = Set(methods)
        if set.contains(.get) { set.insert(.head) }
        let order: [HTTPMethod] = [.get, .head, .post, .put, .patch, .delete, .options]
        let others = set.subtracting(order).sorted { $0.rawValue < $1.rawValue }
        return order.filter(set.contains) + others
    }
}
