/// Anything that turns a request into a response: the router, a middleware wrapping it, a test double.
///
/// Both the libmicrohttpd daemon and the router-level test client drive a `Responder`, so everything
/// above the transport is tested without sockets.
public protocol Responder: Sendable {
    /// Produces the response for `request`. Never throws: errors become responses.
    func respond(to request: Request) async -> Response
}
