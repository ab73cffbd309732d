/// Maps `(method, path)` to handlers. Patterns have literal segments and `{name}` parameters.
///
/// - No route matches the path: 404 `{"error":"not_found",…}`.
/// - A route matches the path but not the method: 405 with `Allow` listing the methods (RFC 9110 §15.5.6).
/// - `HEAD` runs the `GET` handler when no `HEAD` handler exists (RFC 9110 §9.3.2); the daemon drops the body.
/// - Among routes matching a path, the most specific wins (a literal segment beats a parameter).
public struct Router: Responder {
    /// A request handler.
    public typealias Handler = @Sendable (Request) async -> Response

    private struct Route: Sendable {
        let pattern: RoutePattern
        var handlers: [HTTPMethod: Handler]
    }

    private var routes: [Route] = []

    /// An empty router.
    public init() {}

    /// Registers `handler` for `method` on `pattern` (e.g. `/device-keys/{key_id}`).
    /// Registering the same method and pattern twice is a programming error.
    public mutating func add(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping Handler) {
        let parsed = RoutePattern(pattern)
        if let index = routes.firstIndex(where: { $0.pattern == parsed }) {
            precondition(routes[index].handlers[method] == nil, "\(method) \(pattern) registered twice")
            routes[index].handlers[method] = handler
        } else {
            routes.append(Route(pattern: parsed, handlers: [method: handler]))
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
        var response = await dispatch(request)
        response.applyRetryAfterRule()
        return response
    }

    /// The route pattern `respond(to:)` labels `request`'s response with: the handler's route, or for a method the
    /// path has no handler for, the path's route (the 405); `nil` when nothing matches (the 404). Known before any
    /// handler runs, so the transport can label an answer it gives in the handler's place (a deadline's 503).
    public func route(for request: Request) -> String? {
        if let best = handler(for: request) { return best.route.pattern.text }
        return methods(for: request.path)?.route
    }

    /// Runs the handler `request` resolves to, or answers 404 or 405.
    private func dispatch(_ request: Request) async -> Response {
        // RFC 9112 §3.2.1: an origin-form target starts with '/'; anything else ("*", absolute-form) has no route.
        guard request.path.hasPrefix("/") else {
            return .error(status: 404, error: "not_found", description: "No resource at this path.")
        }
        if let best = handler(for: request) {
            var routed = request
            routed.pathParameters = best.parameters
            routed.route = best.route.pattern.text
            var response = await best.handler(routed)
            response.route = best.route.pattern.text
            return response
        }
        // No handler for this method: 405 if the path has a route at all (the rare case, so a second scan).
        guard let resolved = methods(for: request.path) else {
            return .error(status: 404, error: "not_found", description: "No resource at this path.")
        }
        var response = Response.error(
            status: 405, error: "method_not_allowed", description: "This method is not allowed on this resource.")
        response.headers.add(name: "Allow", value: resolved.methods.map(\.rawValue).joined(separator: ", "))
        response.route = resolved.route
        return response
    }

    /// The most specific route with a handler for `request`'s method and path, that handler and the path's
    /// parameters; `nil` for none.
    private func handler(for request: Request) -> (route: Route, handler: Handler, parameters: [String: String])? {
        guard request.path.hasPrefix("/") else { return nil }
        let pathSegments = request.path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        var best: (route: Route, handler: Handler, parameters: [String: String])?
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
