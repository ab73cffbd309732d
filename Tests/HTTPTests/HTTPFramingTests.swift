import Synchronization
import Testing

@testable import HTTP

/// RFC 9112 framing and RFC 9110 methods, end to end: what libmicrohttpd lets through is refused from the access
/// handler, with the connection closed, before any of the body is read.
@Suite("HTTPServer: request framing and methods (raw sockets)", .serialized)
struct HTTPFramingTests {
    struct Case: Sendable, CustomStringConvertible {
        let description: String
        let request: String
        let status: Int
        let error: String
    }

    /// A whole request, appended to a refused one: it must never be answered (request smuggling).
    static let smuggled = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"

    static let refused: [Case] = [
        Case(
            description: "Content-Length with Transfer-Encoding, a request after the chunked body (RFC 9112 §6.1)",
            request: "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: \(5 + smuggled.utf8.count)\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n\(smuggled)",
            status: 400, error: "invalid_request"),
        Case(
            description: "Transfer-Encoding before Content-Length, a request after the length (RFC 9112 §6.1)",
            request: "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n"
                + "0\r\n\r\n\(smuggled)",
            status: 400, error: "invalid_request"),
        Case(
            description: "two identical Host fields (RFC 9112 §3.2)",
            request: "GET /healthz HTTP/1.1\r\nHost: x\r\nhost: x\r\n\r\n", status: 400, error: "invalid_request"),
        Case(
            description: "an obs-folded Content-Length, a request as its body (RFC 9112 §5.2)",
            request: "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length:\r\n \(smuggled.utf8.count)\r\n\r\n\(smuggled)",
            status: 400, error: "invalid_request"),
        Case(
            description: "an obs-folded field value (RFC 9112 §5.2)",
            request: "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Thing: a\r\n\tb\r\n\r\n", status: 400,
            error: "invalid_request"),
        Case(
            description: "a bare CR in a field value (RFC 9110 §5.5)",
            request: "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Thing: a\rb\r\n\r\n", status: 400, error: "invalid_request"),
        Case(
            description: "a NUL in a field value (RFC 9110 §5.5)",
            request: "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Thing: a\u{0}b\r\n\r\n", status: 400,
            error: "invalid_request"),
        Case(
            description: "a NUL in Host, before a name a proxy would route by (RFC 9110 §5.5)",
            request: "GET /healthz HTTP/1.1\r\nHost: x\u{0}.example\r\n\r\n", status: 400, error: "invalid_request"),
        Case(
            description: "a NUL in the request target's path, before a suffix MHD would drop (RFC 9112 §3.2)",
            request: "GET /healthz\u{0}.txt HTTP/1.1\r\nHost: x\r\n\r\n", status: 400, error: "invalid_request"),
        Case(
            description: "a NUL in the request target's query (RFC 9112 §3.2)",
            request: "GET /healthz?a=b\u{0}c HTTP/1.1\r\nHost: x\r\n\r\n", status: 400, error: "invalid_request"),
        Case(
            description: "a NUL ending the request target, a second target after it (RFC 9112 §3.2)",
            request: "GET /healthz\u{0}/../echo HTTP/1.1\r\nHost: x\r\n\r\n", status: 400,
            error: "invalid_request"),
        Case(
            description: "a field line ended by a bare LF (RFC 9112 §2.2)",
            request: "GET /healthz HTTP/1.1\r\nHost: x\nX-Thing: b\r\n\r\n", status: 400, error: "invalid_request"),
        Case(
            description: "the request line ended by a bare LF (RFC 9112 §2.2)",
            request: "GET /healthz HTTP/1.1\nHost: x\r\n\r\n", status: 400, error: "invalid_request"),
        Case(
            description: "every line ended by a bare LF (RFC 9112 §2.2)",
            request: "GET /healthz HTTP/1.1\nHost: x\n\n\(smuggled)", status: 400, error: "invalid_request"),
        Case(
            description: "Content-Length with Transfer-Encoding (RFC 9112 §6.1)",
            request: "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "3\r\nabc\r\n0\r\n\r\n",
            status: 400, error: "invalid_request"),
        Case(
            description: "differing repeated Content-Length values (RFC 9112 §6.3)",
            request: "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 5\r\n\r\nabcde",
            status: 400, error: "invalid_request"),
        Case(
            description: "HTTP/1.1 without Host (RFC 9112 §3.2)",
            request: "GET /healthz HTTP/1.1\r\n\r\n", status: 400, error: "invalid_request"),
        Case(
            description: "two Host fields (RFC 9112 §3.2)",
            request: "GET /healthz HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", status: 400, error: "invalid_request"),
        Case(
            description: "whitespace between a field name and its colon (RFC 9112 §5.1)",
            request: "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Thing : 1\r\n\r\n", status: 400, error: "invalid_request"),
        Case(
            description: "chunked twice (RFC 9112 §6.1)",
            request: "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n",
            status: 400, error: "invalid_request"),
        Case(
            description: "Transfer-Encoding in HTTP/1.0 (RFC 9112 §6.1)",
            request: "POST /echo HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            status: 400, error: "invalid_request"),
        Case(
            description: "an unknown transfer coding (RFC 9112 §6.1: 501, not a held connection)",
            request: "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\nabc",
            status: 501, error: "not_implemented"),
        Case(
            description: "an unknown coding before chunked",
            request: "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
            status: 501, error: "not_implemented"),
        Case(
            description: "an unknown method (RFC 9110 §15.6.2)",
            request: "FROBNICATE /healthz HTTP/1.1\r\nHost: x\r\n\r\n", status: 501, error: "not_implemented"),
        Case(
            description: "CONNECT", request: "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n",
            status: 501, error: "not_implemented"),
    ]

    @Test(
        "refused with its status, a JSON error and a closed connection, and nothing after it answered",
        arguments: refused)
    func refusal(_ refused: Case) async throws {
        try await HTTPServerTests.withServer { _, port in
            let client = try RawHTTPClient(port: port)
            try client.write(refused.request)
            let response = try await client.response()
            #expect(response.status == refused.status)
            #expect(response.text.contains(#""error":"\#(refused.error)""#))
            #expect(response.header("Connection")?.lowercased() == "close")
            #expect(try await client.closedByServer())
            #expect(!client.hasPendingBytes(), "a second response followed the refusal")
        }
    }

    @Test("TRACE and QUERY are known, no resource has them: 405 with Allow on a route, else 404 (RFC 9110 §15.5.6)")
    func traceAndQuery() async throws {
        try await HTTPServerTests.withServer { _, port in
            let client = try RawHTTPClient(port: port)
            for method in ["TRACE", "QUERY"] {
                try client.write("\(method) /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
                let response = try await client.response()
                #expect(response.status == 405, "\(method)")
                #expect(response.text.contains(#""error":"method_not_allowed""#))
                #expect(response.header("Allow") == "GET, HEAD")
                try client.write("\(method) /nowhere HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
                #expect(try await client.response().status == 404, "\(method)")
            }
        }
    }

    @Test("a request that ends after its request line, before its header section does, is closed cleanly")
    func endedInHeaderSection() async throws {
        try await HTTPServerTests.withServer { _, port in
            // The URI log callback has recorded the target in the request's slot, and no access-handler call
            // replaced it with a context: the completion callback must find the record, not a context to release.
            let client = try RawHTTPClient(port: port)
            try client.write("GET /healthz HTTP/1.1\r\nHost: x\r\n")
            client.finishWriting()
            #expect(try await client.closedByServer())
            let next = try RawHTTPClient(port: port)
            try next.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await next.response().status == 200)
        }
    }

    static let accepted: [Case] = [
        Case(
            description: "a target whose path and query MHD splits and decodes in place (the NUL check measures it)",
            request: "GET /items/a%20b?q=x%41&r=&s HTTP/1.1\r\nHost: x\r\n\r\n", status: 200, error: ""),
        Case(
            description: "identical repeated Content-Length values (RFC 9112 §6.3: one length)",
            request: "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc",
            status: 200, error: ""),
        Case(
            description: "HTTP/1.0 without Host", request: "GET /healthz HTTP/1.0\r\n\r\n", status: 200, error: ""),
        Case(
            description: "empty values, whitespace around values, tabs and cookies (RFC 9112 §5.1: OWS)",
            request: "GET /healthz HTTP/1.1\r\nHost:x\r\nX-Empty:\r\nX-Blank:   \r\nX-Tab:\t v \t\r\n"
                + "Cookie: a=b; c=d\r\nX-Last: 1\r\n\r\n",
            status: 200, error: ""),
        Case(
            description: "a header section longer than the first read buffer",
            request: "GET /healthz HTTP/1.1\r\nHost: x\r\n"
                + (0..<40).map { "X-Field-\($0): \(String(repeating: "v", count: 400))\r\n" }.joined() + "\r\n",
            status: 200, error: ""),
        Case(
            description: "a transfer coding in capitals (case-insensitive, RFC 9112 §7)",
            request: "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: Chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
            status: 200, error: ""),
    ]

    @Test("accepted as before, also as the second request on a connection", arguments: accepted)
    func acceptance(_ accepted: Case) async throws {
        try await HTTPServerTests.withServer { _, port in
            let client = try RawHTTPClient(port: port)
            try client.write(accepted.request)
            #expect(try await client.response().status == accepted.status)
            guard !accepted.request.contains("HTTP/1.0") else { return }  // HTTP/1.0: the connection closes
            try client.write(accepted.request)
            #expect(try await client.response().status == accepted.status)
        }
    }

    /// Records every completed request.
    final class RecordingObserver: RequestObserver {
        let events = Mutex<[CompletedRequest]>([])
        func requestStarted() {}
        func requestCompleted(_ event: CompletedRequest) { events.withLock { $0.append(event) } }
    }

    @Test("many distinct unknown methods each get 501 and reach the observer as `other`, never as sent")
    func methodFlood() async throws {
        let observer = RecordingObserver()
        var configuration = HTTPServer.Configuration(port: 0)
        configuration.logsLibraryErrors = false
        let server = HTTPServer(configuration: configuration, responder: HTTPServerTests.router(), observer: observer)
        let port = try server.start()
        for index in 0..<40 {
            let client = try RawHTTPClient(port: port)
            try client.write("M\(index)X /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.response().status == 501)
        }
        let client = try RawHTTPClient(port: port)
        try client.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await client.response().status == 200)
        await server.shutdown(deadline: .milliseconds(100))
        let events = observer.events.withLock { $0 }
        #expect(events.count == 41)
        #expect(Set(events.map(\.method.rawValue)) == ["other", "GET"])
        #expect(events.filter { $0.method == .other }.allSatisfy { $0.status == 501 })
    }
}
