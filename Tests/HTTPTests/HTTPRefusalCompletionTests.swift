import Testing

@testable import HTTP

/// `Responder.completeRefusal`: the transport's own 413 passes through the responder, which may add fields (as
/// passkeyd's CORS layer does) before it is sent.
@Suite("HTTPServer: refusals completed by the responder")
struct HTTPRefusalCompletionTests {
    /// Echoes what it saw of the refused request into response fields.
    struct MarkingResponder: Responder {
        func respond(to request: Request) async -> Response { .text("ok") }

        func completeRefusal(_ response: inout Response, to request: Request) {
            response.headers.add(name: "X-Refused-Path", value: request.path)
            response.headers.add(name: "X-Refused-Origin", value: request.headers["Origin"] ?? "none")
            response.headers.add(name: "X-Refused-Body", value: String(request.body.count))
        }
    }

    func withServer(_ body: (Int) async throws -> Void) async throws {
        try await HTTPServerTests.withServer(.init(port: 0, maxBodyBytes: 16), responder: MarkingResponder()) {
            _, port in try await body(port)
        }
    }

    @Test("a 413 after the body was drained carries the responder's fields, and is still a 413")
    func drained() async throws {
        try await withServer { port in
            let client = try RawHTTPClient(port: port)
            let body = String(repeating: "x", count: 100)
            try client.write(
                "POST /oauth/token HTTP/1.1\r\nHost: x\r\nOrigin: https://app.example\r\nContent-Length: 100\r\n\r\n\(body)")
            let response = try await client.response()
            #expect(response.status == 413)
            #expect(response.text.contains(#""error":"request_too_large""#))
            #expect(response.header("X-Refused-Path") == "/oauth/token")
            #expect(response.header("X-Refused-Origin") == "https://app.example")
            #expect(response.header("X-Refused-Body") == "0")
        }
    }

    @Test("a 413 answered before the body (Expect: 100-continue) carries them too")
    func early() async throws {
        try await withServer { port in
            let client = try RawHTTPClient(port: port)
            try client.write(
                "POST /passkey/register HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n")
            let response = try await client.response()
            #expect(response.status == 413)
            #expect(response.header("X-Refused-Path") == "/passkey/register")
            #expect(response.header("X-Refused-Origin") == "none")
        }
    }
}
