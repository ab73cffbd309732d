import HTTP

/// Wraps an endpoint body so every thrown error goes through `ErrorMapping`, and applies the per-IP rate
/// limit to the endpoints that have one.
enum EndpointHandler {
    /// A handler for `body`; with `rateLimited`, a request over the limit is answered 429 before `body` runs.
    static func make(
        _ context: ServerContext, rateLimited: Bool = false,
        _ body: @escaping @Sendable (Request) async throws -> Response
    ) -> Router.Handler {
        { request in
            do {
                if rateLimited {
                    try checkRateLimit(request, context: context)
                }
                return try await body(request)
            } catch {
                return ErrorMapping.response(for: error, request: request, context: context)
            }
        }
    }

    /// Auth0's answer over the limit: 429 `too_many_requests` with `Retry-After` (RFC 6585 §4).
    static func checkRateLimit(_ request: Request, context: ServerContext) throws {
        if case .limited(let retryAfter) = context.rateLimiter.check(
            address: request.remoteAddress, now: context.clock.now())
        {
            throw OAuthError(
                .tooManyRequests, "Too many requests. Try again later.", logCode: "rate_limited",
                reason: "client IP over \(context.configuration.rateLimitPerMinute)/min", retryAfter: retryAfter)
        }
    }
}
