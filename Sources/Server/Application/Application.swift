import HTTP

/// The whole HTTP surface of passkeyd as one `Responder`: the router with every endpoint registered.
/// The daemon is one adapter in front of it, the router-level test client another.
public struct Application: Responder {
    public let context: ServerContext
    private let router: Router

    /// Builds the router for `context`.
    public init(context: ServerContext) {
        self.context = context
        var router = Router()
        HealthEndpoints.register(in: &router, context: context)
        PasskeyEndpoints.register(in: &router, context: context)
        TokenEndpoint.register(in: &router, context: context)
        DiscoveryEndpoints.register(in: &router, context: context)
        AssociationEndpoints.register(in: &router, context: context)
        DeviceKeyEndpoints.register(in: &router, context: context)
        self.router = router
    }

    public func respond(to request: Request) async -> Response {
        await router.respond(to: request)
    }
}
