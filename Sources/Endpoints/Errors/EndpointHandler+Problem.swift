import HTTP
import Service

extension EndpointHandler {
    /// `make`'s handler for the routes in the shape of Auth0's My Account API: every thrown error goes through the
    /// same `ErrorMapping` (logged and counted alike) and is answered as problem details
    /// (`OAuthError.problemResponse`).
    package static func makeProblem(
        _ context: ServerContext, _ body: @escaping @Sendable (Request) async throws -> Response
    ) -> Router.Handler {
        { request in
            do {
                return try await body(request)
            } catch {
                let mapped = ErrorMapping.oauthError(for: error)
                ErrorMapping.record(mapped, error: error, request: request, context: context)
                return mapped.problemResponse
            }
        }
    }
}
