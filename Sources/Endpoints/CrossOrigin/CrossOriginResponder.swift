import HTTP
import JSON
import Service

/// The router behind the CORS protocol of `CrossOriginPolicy`: answers preflight requests itself and adds the
/// `Access-Control-*` fields to the responses of the endpoints that take part.
package struct CrossOriginResponder: Responder {
    package let policy: CrossOriginPolicy
    package let router: Router
    /// Where a refused preflight is reported, with the refused origin (the browser only says "CORS error").
    package var logger: Logger?

    package func respond(to request: Request) async -> Response {
        if let response = preflightAnswer(to: request) { return response }
        return withFields(await router.respond(to: request), for: request)
    }

    /// `respond(to:)`'s answer when it needs no suspension: a preflight, or the router's inline answer
    /// (`Router.respondInline(to:)`) with the same fields.
    package func respondInline(to request: Request) -> Response? {
        if let response = preflightAnswer(to: request) { return response }
        return router.respondInline(to: request).map { withFields($0, for: request) }
    }

    /// The answer to `request` when it is a preflight for an endpoint that takes part in CORS; otherwise `nil`.
    /// Fetch §3.2.2: a preflight is an OPTIONS request with `Origin` and `Access-Control-Request-Method`. Any other
    /// OPTIONS request, and a preflight for an endpoint outside CORS, gets the router's answer.
    private func preflightAnswer(to request: Request) -> Response? {
        guard request.method == .options, let origin = request.headers["Origin"],
            let requestedMethod = request.headers["Access-Control-Request-Method"],
            let resolved = router.methods(for: request.path), let access = policy.access(route: resolved.route)
        else { return nil }
        var response = preflight(
            origin: origin, requestedMethod: HTTPMethod(rawValue: requestedMethod), methods: resolved.methods,
            access: access)
        response.route = resolved.route
        if response.status == 403 {
            // The operator's only clue which origin a page used: log it (bounded; LogLine escapes it).
            logger?.log(.warning, "preflight refused") { line in
                line.add("request_id", request.requestID)
                line.add("route", resolved.route)
                line.add("origin", String(origin.prefix(256)))
            }
        }
        return response
    }

    /// The router's `response` to `request` with the CORS fields of its route, if it takes part.
    private func withFields(_ response: Response, for request: Request) -> Response {
        var response = response
        if let route = response.route, let access = policy.access(route: route) {
            addFields(to: &response, origin: request.headers["Origin"], access: access)
        }
        return response
    }

    /// A 413 or 503 from the transport gets the same fields as the endpoint's own answers, so a web app reads it
    /// instead of a network error.
    package func completeRefusal(_ response: inout Response, to request: Request) {
        guard let resolved = router.methods(for: request.path), let access = policy.access(route: resolved.route)
        else { return }
        addFields(to: &response, origin: request.headers["Origin"], access: access)
    }

    /// The router's route for `request` (a preflight is labelled with the same route).
    package func route(for request: Request) -> String? {
        router.route(for: request)
    }

    /// The answer to a preflight: 204 with the grant, 403 for an origin outside the policy, 405 for a method
    /// the endpoint does not have. Only the 204 carries `Access-Control-Allow-Origin`, so the browser refuses
    /// the actual request in the other two cases.
    private func preflight(origin: String, requestedMethod: HTTPMethod, methods: [HTTPMethod], access: Access)
        -> Response
    {
        var response: Response
        let methodList = methods.map(\.rawValue).joined(separator: ", ")
        if access == .webOrigins, !policy.allows(origin: origin) {
            response = .error(
                status: 403, error: "origin_not_allowed",
                description: "This origin is not one of the web origins configured for passkeyd.")
        } else if !methods.contains(requestedMethod) {
            response = .error(
                status: 405, error: "method_not_allowed", description: "This method is not allowed on this resource.")
            response.headers.add(name: "Allow", value: methodList)
        } else {
            response = .empty(status: 204)
            response.headers.add(name: "Access-Control-Allow-Origin", value: access == .anyOrigin ? "*" : origin)
            response.headers.add(name: "Access-Control-Allow-Methods", value: methodList)
            response.headers.add(name: "Access-Control-Allow-Headers", value: CrossOriginPolicy.allowedRequestHeaders)
            response.headers.add(
                name: "Access-Control-Max-Age", value: String(CrossOriginPolicy.preflightMaxAgeSeconds))
        }
        if access == .webOrigins {
            // The answer depends on these request fields; a shared cache must not reuse it for others.
            response.headers.add(
                name: "Vary", value: "Origin, Access-Control-Request-Method, Access-Control-Request-Headers")
        }
        return response
    }

    /// The CORS fields of an actual response, errors included (a web app must be able to read an
    /// `invalid_grant` or a 429's `Retry-After`).
    private func addFields(to response: inout Response, origin: String?, access: Access) {
        switch access {
        case .anyOrigin:
            response.headers.replace(name: "Access-Control-Allow-Origin", value: "*")
        case .webOrigins:
            // Sent whether or not this request had an allowed origin: the response varies with it.
            response.headers.add(name: "Vary", value: "Origin")
            guard let origin, policy.allows(origin: origin) else { return }
            response.headers.replace(name: "Access-Control-Allow-Origin", value: origin)
        }
        response.headers.replace(name: "Access-Control-Expose-Headers", value: CrossOriginPolicy.exposedResponseHeaders)
    }

    private typealias Access = CrossOriginPolicy.Access
}
