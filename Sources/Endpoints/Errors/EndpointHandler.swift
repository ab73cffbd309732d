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
            if let refusal = admission(request, context: context, rateLimited: rateLimited) { return refusal }
            do {
                return try await body(request)
            } catch {
                return ErrorMapping.response(for: error, request: request, context: context)
            }
        }
    }

    /// `make`'s handler for a `body` whose work is CPU only (no store, no await), for `Router.addInline`: the same
    /// rate limit and error mapping, answered on the thread that read the request. Moving an endpoint between the
    /// two is `make` → `makeInline` and `add` → `addInline`.
    package static func makeInline(
        _ context: ServerContext, rateLimited: Bool = false,
        _ body: @escaping @Sendable (Request) throws -> Response
    ) -> Router.InlineHandler {
        { request in
            if let refusal = admission(request, context: context, rateLimited: rateLimited) { return refusal }
            do {
                return try body(request)
            } catch {
                return ErrorMapping.response(for: error, request: request, context: context)
            }
        }
    }

    /// An inline attempt (`Router.InlineAttempt`) that reads what it needs of the request once (`prepare`): `nil`
    /// from `prepare` hands the request to the route's task handler before anything is counted (the handler admits
    /// it then), otherwise it is admitted and answered here as `makeInline` answers, `body` taking what `prepare`
    /// read.
    package static func makeInlineAttempt<Prepared: Sendable>(
        _ context: ServerContext, rateLimited: Bool = false,
        prepare: @escaping @Sendable (Request) -> Prepared?,
        _ body: @escaping @Sendable (Request, Prepared) throws -> Response
    ) -> Router.InlineAttempt {
        { request in
            guard let prepared = prepare(request) else { return nil }
            if let refusal = admission(request, context: context, rateLimited: rateLimited) { return refusal }
            do {
                return try body(request, prepared)
            } catch {
                return ErrorMapping.response(for: error, request: request, context: context)
            }
        }
    }

    /// The answer for a request refused before its endpoint runs (the per-IP limit, when `rateLimited`), else
    /// `nil`.
    private static func admission(_ request: Request, context: ServerContext, rateLimited: Bool) -> Response? {
        guard rateLimited else { return nil }
        do {
            try checkRateLimit(request, context: context)
            return nil
        } catch {
            return ErrorMapping.response(for: error, request: request, context: context)
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
