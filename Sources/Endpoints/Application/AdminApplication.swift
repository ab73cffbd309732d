import Audit
import HTTP
import JSON
import Service

/// The admin listener's surface (`admin.listen`): `/metrics` with copies of `/healthz` and `/readyz`, for
/// scrapers and orchestrators on a private address, never on the public port; and the audit log's read endpoints
/// (`AuditEndpoints`); and by default the OpenAPI document (`openapi.listener`).
public struct AdminApplication: Responder {
    private let router: Router

    /// Builds the admin router for `context`; `storeMetrics` renders the database driver's own counters, appended to
    /// `/metrics` (the composition root knows the driver).
    public init(
        context: ServerContext, auditSigner: (any NoteSigner)? = nil,
        storeMetrics: @escaping @Sendable () -> String = { "" }
    ) {
        var router = Router()
        HealthEndpoints.register(in: &router, context: context)
        HealthEndpoints.registerMetrics(in: &router, context: context, storeMetrics: storeMetrics)
        AuditEndpoints.register(in: &router, context: context, signer: auditSigner)
        if context.configuration.web.openAPIListener == .admin { OpenAPIEndpoint.register(in: &router) }
        self.router = router
    }

    /// Every route the admin listener serves, for the check that docs/openapi.yaml documents each one.
    public var routes: [(method: HTTPMethod, pattern: String)] { router.registeredRoutes }

    public func respond(to request: Request) async -> Response {
        await router.respond(to: request)
    }

    /// The router's inline answer (`Router.respondInline(to:)`): `/healthz` and `/metrics`.
    public func respondInline(to request: Request) -> Response? {
        router.respondInline(to: request)
    }

    public func route(for request: Request) -> String? {
        router.route(for: request)
    }
}
