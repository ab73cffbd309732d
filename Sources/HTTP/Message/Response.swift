import Foundation
import JSON

/// One HTTP response: status, header fields and the complete body.
public struct Response: Sendable {
    /// The status code (RFC 9110 §15).
    public var status: Int
    /// The header fields. `Content-Length` and `Date` are added by the daemon.
    public var headers: HTTPHeaders
    /// The body bytes (left off the wire for `HEAD`).
    public var body: [UInt8]
    /// The route pattern that produced this response (set by the `Router`, `nil` when no route matched).
    /// Metadata for metrics and logs; never sent.
    public var route: String?

    /// Creates a response.
    public init(status: Int = 200, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
        self.route = nil
    }

    /// The headers every JSON response carries. RFC 6749 §5.1: token responses must not be cached;
    /// the same holds for every JSON document this server returns.
    static var jsonHeaders: HTTPHeaders {
        ["Content-Type": "application/json", "Cache-Control": "no-store"]
    }

    /// A JSON response from a `JSONValue`, written with object member order and number text preserved.
    public static func json(_ value: JSONValue, status: Int = 200) -> Response {
        Response(status: status, headers: jsonHeaders, body: value.serialized())
    }

    /// A plain-text response (`text/plain; charset=utf-8` unless `contentType` says otherwise).
    public static func text(
        _ text: String,
        status: Int = 200,
        contentType: String = "text/plain; charset=utf-8"
    ) -> Response {
        Response(status: status, headers: ["Content-Type": contentType], body: Array(text.utf8))
    }

    /// An empty response, 204 by default.
    public static func empty(status: Int = 204) -> Response {
        Response(status: status)
    }

    /// An OAuth-style error document (RFC 6749 §5.2): `{"error":…,"error_description":…}`.
    public static func error(status: Int, error: String, description: String) -> Response {
        var body: [UInt8] = []
        body.reserveCapacity(32 + error.utf8.count + description.utf8.count)
        body.append(contentsOf: #"{"error":"#.utf8)
        JSONWriter.appendString(error, to: &body)
        body.append(contentsOf: #","error_description":"#.utf8)
        JSONWriter.appendString(description, to: &body)
        body.append(UInt8(ascii: "}"))
        return Response(status: status, headers: jsonHeaders, body: body)
    }
}
