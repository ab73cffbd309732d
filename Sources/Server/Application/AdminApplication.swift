import Audit
import HTTP

/// The admin listener's surface (`admin.listen`): `/metrics` with copies of `/healthz` and `/readyz`, for
/// scrapers and orchestrators on a private address, never on the public port; and the audit log's read endpoints
/// (`AuditEndpoints`).
public struct AdminApplication: Responder {
    private let router: Router

    /// Builds the admin router for `context`.
    public init(context: ServerContext, auditSigner: (any NoteSigner)? = nil) {
        var router = Router()
        HealthEndpoints.register(in: &router, context: context)
        HealthEndpoints.registerMetrics(in: &router, context: context)
        AuditEndpoints.register(in: &router, context: context, signer: auditSigner)
        self.router = router
    }

    public func respond(to request: Request) async -> Response {
        await router.respond(to: request)
    }
}
