import HTTP
import JSON
import Service
import Storage

/// The whole HTTP surface of passkeyd as one `Responder`: the router with every endpoint registered, behind the
/// CORS protocol of `CrossOriginPolicy`. The daemon is one adapter in front of it, the router-level test client
/// another.
public struct Application: Responder {
    public let context: ServerContext
    private let responder: CrossOriginResponder

    /// Builds the router for `context`.
    public init(context: ServerContext) {
        self.context = context
        var router = Router()
        HealthEndpoints.register(in: &router, context: context)
        PasskeyEndpoints.register(in: &router, context: context)
        TokenEndpoint.register(in: &router, context: context)
        DiscoveryEndpoints.register(in: &router, context: context)
        AuthorizeEndpoint.register(in: &router, context: context)
        PushedAuthorizationEndpoint.register(in: &router, context: context)
        HostedCeremonyEndpoints.register(in: &router, context: context)
        LogoutEndpoints.register(in: &router, context: context)
        AssociationEndpoints.register(in: &router, context: context)
        DeviceKeyEndpoints.register(in: &router, context: context)
        PasswordFallbackEndpoints.register(in: &router, context: context)
        if context.configuration.web.openAPIListener == .public { OpenAPIEndpoint.register(in: &router) }
        if let demo = context.configuration.web.demo {
            DemoEndpoints.register(in: &router, demo: demo, accountAudience: context.configuration.accountAudience)
        }
        PasskeyLifecycleEndpoints.register(in: &router, context: context)
        MyAccountEndpoints.register(in: &router, context: context)
        RecoveryEndpoints.register(in: &router, context: context)
        self.responder = CrossOriginResponder(
            policy: CrossOriginPolicy(configuration: context.configuration), router: router, logger: context.logger)
    }

    /// Every route the public listener serves, for the check that docs/openapi.yaml documents each one.
    public var routes: [(method: HTTPMethod, pattern: String)] { responder.router.registeredRoutes }

    public func respond(to request: Request) async -> Response {
        await SecurityEventOrigin.$current.withValue(origin(of: request)) { await responder.respond(to: request) }
    }

    /// `respond(to:)`'s answer when it needs no suspension (`CrossOriginResponder.respondInline(to:)`), with the
    /// same `SecurityEventOrigin` bound (a task-local, bound here on the transport's thread).
    public func respondInline(to request: Request) -> Response? {
        SecurityEventOrigin.$current.withValue(origin(of: request)) { responder.respondInline(to: request) }
    }

    /// The request's id and address, which go with every security event it records (docs/audit.md).
    private func origin(of request: Request) -> SecurityEventOrigin {
        SecurityEventOrigin(
            requestID: request.requestID, clientAddress: request.remoteAddress,
            nodeID: context.configuration.audit.nodeID)
    }

    public func completeRefusal(_ response: inout Response, to request: Request) {
        responder.completeRefusal(&response, to: request)
    }

    public func route(for request: Request) -> String? {
        responder.route(for: request)
    }
}
