/// Anything that turns a request into a response: the router, a middleware wrapping it, a test double.
///
/// Both the libmicrohttpd daemon and the router-level test client drive a `Responder`, so everything
/// above the transport is tested without sockets.
public protocol Responder: Sendable {
    /// Produces the response for `request`. Never throws: errors become responses.
    func respond(to request: Request) async -> Response

    /// The response for `request` when it can be produced at once, on the calling thread, with no suspension (the
    /// request's work is CPU only: no store, no await); `nil` when it needs `respond(to:)`. The transport asks this
    /// first and answers from the thread that read the request, with no task and no hop to the cooperative pool
    /// ("Run to completion", docs/design-notes.md). A non-nil answer must be the one `respond(to:)` gives for the
    /// same request. Runs on the transport's threads: it must not block.
    func respondInline(to request: Request) -> Response?

    /// Completes an answer the transport gives by itself, in place of `respond(to:)`'s: the 413 for a body over
    /// the limit, and the 503 for a request whose responder overran its deadline or that shutdown cut short.
    /// `request` has the method, path, query and headers, and no body. A responder may add header fields (CORS,
    /// so that a browser can read the refusal) and must leave the status and body alone. Runs on the
    /// transport's threads, so it must not block.
    func completeRefusal(_ response: inout Response, to request: Request)

    /// The route pattern the response to `request` will be labelled with (`Response.route`), known before the
    /// response exists: the transport labels an answer it gives in the responder's place (the 503 of a deadline or
    /// of shutdown) with it, so logs and metrics name the route the request belonged to. `nil`: no route.
    func route(for request: Request) -> String?
}

extension Responder {
    /// Nothing inline: every request goes to `respond(to:)`.
    public func respondInline(to request: Request) -> Response? { nil }

    /// Adds nothing.
    public func completeRefusal(_ response: inout Response, to request: Request) {}

    /// No route.
    public func route(for request: Request) -> String? { nil }
}
