import HTTP
import JSON
import Service

/// Wraps an endpoint body so every thrown error goes through `ErrorMapping`, and applies the per-IP rate
/// limit to the endpoints that have one. The per-user limit needs the access token read first: the endpoints
/// that have one call `checkUserRateLimit` once they know the user.
package enum EndpointHandler {
    /// A handler for `body`; with `rateLimited`, a request over the limit is answered 429 before `body` runs.
    package static func make(
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

    /// Auth0's answer over the per-IP limit: 429 `too_many_requests` with `Retry-After` (RFC 6585 §4).
    package static func checkRateLimit(_ request: Request, context: ServerContext) throws {
        try enforce(
            context.rateLimiter.check(address: request.remoteAddress, now: context.clock.now()),
            reason: "client IP over \(context.configuration.rateLimitPerMinute)/min")
    }

    /// The per-user limit of the authenticated API, keyed by the access token's subject: the same 429.
    package static func checkUserRateLimit(_ subject: AuthenticatedSubject, context: ServerContext) throws {
        try enforce(
            context.userRateLimiter.check(key: subject.sub, now: context.clock.now()),
            reason: "user over \(context.configuration.rateLimitPerUserPerMinute)/min")
    }

    /// Throws 429 `too_many_requests` with `Retry-After` (RFC 6585 §4) when `decision` is over a limit.
    package static func enforce(
        _ decision: RateLimiter.Decision, description: String = "Too many requests. Try again later.",
        logCode: String = "rate_limited", reason: String
    ) throws {
        if case .limited(let retryAfter) = decision {
            throw OAuthError(.tooManyRequests, description, logCode: logCode, reason: reason, retryAfter: retryAfter)
        }
    }
}
