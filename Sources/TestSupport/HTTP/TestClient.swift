import Foundation
import HTTP
import JSON

/// Drives a `Responder` the way the daemon does, without sockets: builds the `Request` from a
/// request-target (path percent-decoded, query parsed), applies the `X-Request-Id` rule, echoes the id
/// in the response and drops the body of `HEAD` responses.
public struct TestClient: Sendable {
    /// The responder under test (usually a `Router`).
    public let responder: any Responder
    /// Headers sent with every request (e.g. `Authorization`); per-call headers are appended after them.
    public var defaultHeaders: HTTPHeaders
    /// The remote address requests appear to come from.
    public var remoteAddress: String?

    /// Creates a client for `responder`.
    public init(responder: any Responder, headers: HTTPHeaders = HTTPHeaders(), remoteAddress: String? = "127.0.0.1") {
        self.responder = responder
        self.defaultHeaders = headers
        self.remoteAddress = remoteAddress
    }

    /// Sends one request; `target` may carry a query (`/path?x=1`).
    public func execute(
        _ method: HTTPMethod,
        _ target: String,
        headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = []
    ) async -> Response {
        var allHeaders = defaultHeaders
        for field in headers {
            allHeaders.add(name: field.name, value: field.value)
        }
        var request = Request(method: method, target: target, headers: allHeaders, body: body)
        request.remoteAddress = remoteAddress
        // As the daemon does: the inline answer when the responder has one, else the suspending path.
        var response: Response
        if let inline = responder.respondInline(to: request) {
            response = inline
        } else {
            response = await responder.respond(to: request)
        }
        response.headers.replace(name: RequestID.headerName, value: request.requestID)
        if method == .head {
            response.body = []
        }
        return response
    }

    /// `GET target`.
    public func get(_ target: String, headers: HTTPHeaders = HTTPHeaders()) async -> Response {
        await execute(.get, target, headers: headers)
    }

    /// `HEAD target`.
    public func head(_ target: String, headers: HTTPHeaders = HTTPHeaders()) async -> Response {
        await execute(.head, target, headers: headers)
    }

    /// `DELETE target`.
    public func delete(_ target: String, headers: HTTPHeaders = HTTPHeaders()) async -> Response {
        await execute(.delete, target, headers: headers)
    }

    /// `POST target` with an `Encodable` value as `application/json`.
    public func post(_ target: String, json: some Encodable, headers: HTTPHeaders = HTTPHeaders()) async -> Response {
        await send(.post, target, json: json, headers: headers)
    }

    /// `POST target` with a `JSONValue` as `application/json` (member order and number text kept).
    public func post(_ target: String, json: JSONValue, headers: HTTPHeaders = HTTPHeaders()) async -> Response {
        await post(target, body: json.serialized(), contentType: "application/json", headers: headers)
    }

    /// `POST target` with `application/x-www-form-urlencoded` pairs, in order.
    public func post(_ target: String, form: [(String, String)], headers: HTTPHeaders = HTTPHeaders()) async -> Response
    {
        let body = Array(FormURLEncoding.encode(form).utf8)
        return await post(target, body: body, contentType: "application/x-www-form-urlencoded", headers: headers)
    }

    /// `POST target` with raw bytes and a `Content-Type`.
    public func post(
        _ target: String,
        body: [UInt8],
        contentType: String,
        headers: HTTPHeaders = HTTPHeaders()
    ) async -> Response {
        var allHeaders = headers
        allHeaders.replace(name: "Content-Type", value: contentType)
        return await execute(.post, target, headers: allHeaders, body: body)
    }

    /// `PUT target` with an `Encodable` value as `application/json`.
    public func put(_ target: String, json: some Encodable, headers: HTTPHeaders = HTTPHeaders()) async -> Response {
        await send(.put, target, json: json, headers: headers)
    }

    /// `PATCH target` with an `Encodable` value as `application/json`.
    public func patch(_ target: String, json: some Encodable, headers: HTTPHeaders = HTTPHeaders()) async -> Response {
        await send(.patch, target, json: json, headers: headers)
    }

    private func send(
        _ method: HTTPMethod,
        _ target: String,
        json: some Encodable,
        headers: HTTPHeaders
    ) async -> Response {
        // A value the test cannot encode is a broken test; an empty body makes the handler answer 400.
        let body = (try? JSONEncoder().encode(json)).map { [UInt8]($0) } ?? []
        var allHeaders = headers
        allHeaders.replace(name: "Content-Type", value: "application/json")
        return await execute(method, target, headers: allHeaders, body: body)
    }
}

extension Response {
    /// The body decoded as UTF-8 (invalid bytes repaired).
    public var bodyText: String {
        String(decoding: body, as: UTF8.self)
    }

    /// The body decoded into `T` with `JSONDecoder`.
    public func decodeJSON<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(body))
    }

    /// The body parsed as a `JSONValue` (order and number text kept).
    public func jsonValue() throws -> JSONValue {
        try JSONValue(parsing: body)
    }

    /// The `error` member of an OAuth-style error body, if any.
    public var errorCode: String? {
        (try? jsonValue())?["error"]?.stringValue
    }
}
