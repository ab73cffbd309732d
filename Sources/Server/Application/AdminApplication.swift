import HTTP

/// The admin listener's surface (`admin.listen`): `/metrics` with copies of `/healthz` and `/readyz`, for
/// scrapers and orchestrators on a private address, never on the public port.
public struct AdminApplication: Responder {
    private let router: Router

    /// Builds the admin router for `context`.
    public init(context: ServerContext) {
        var router = Router()
        HealthEndpoints.register(in: &router, context: context)
        HealthEndpoints.registerMetrics(in: &router, context: context)
        self.router = router
    }

    public func respond(to request: Request) async -> Response {
        await router.respond(to: request)
    }
}
