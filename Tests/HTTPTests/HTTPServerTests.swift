import Glibc
import Synchronization
import TestSupport
import Testing

@testable import HTTP

@Suite("HTTPServer end to end (127.0.0.1, ephemeral port)", .serialized)
struct HTTPServerTests {
    /// `/slow`'s state: how many requests reached it, and whether it may answer. Tests wait for an arrival rather
    /// than sleep "long enough for the request to reach the responder", a race a loaded machine loses.
    final class SlowGate: Sendable {
        let arrived = Atomic<Int>(0)
        let isOpen = Atomic<Bool>(false)

        func open() { isOpen.store(true, ordering: .relaxed) }

        /// Waits until a request reached `/slow`.
        func awaitArrival() async throws {
            let reached = try await eventually { self.arrived.load(ordering: .relaxed) > 0 }
            try #require(reached, "the request never reached /slow")
        }
    }

    /// The length of `/large`'s body: more than the kernel's socket buffers hold, so a slow reader keeps the server
    /// writing.
    static let largeBodyBytes = 16 << 20

    /// The test routes; `/slow` answers once `gate` is opened (never, unless a test opens it: the request deadline
    /// or a shutdown cuts it, cancelling its task).
    static func router(slow gate: SlowGate = SlowGate()) -> Router {
        var router = Router()
        router.add(.get, "/healthz") { _ in .text("ok") }
        router.add(.get, "/items/{id}") { request in
            .json(["id": .string(request.pathParameters["id"] ?? ""), "q": .string(request.query["q"] ?? "")])
        }
        router.add(.post, "/echo") { request in
            var response = Response(status: 200, body: request.body)
            response.headers.add(name: "Content-Type", value: request.headers["Content-Type"] ?? "none")
            return response
        }
        router.add(.get, "/inject") { _ in
            Response(status: 200, headers: ["X-Good": "yes", "X-Bad": "a\r\nSet-Cookie: evil=1"], body: [])
        }
        router.add(.get, "/cookies") { _ in
            var response = Response(status: 204)
            response.setCookie(SetCookie(name: "a", value: "1", maxAge: 60, secure: true, sameSite: .lax))
            response.setCookie(SetCookie(name: "b", value: "2", maxAge: 0, secure: true, sameSite: .strict))
            return response
        }
        router.add(.get, "/large") { _ in
            Response(status: 200, body: [UInt8](repeating: UInt8(ascii: "a"), count: largeBodyBytes))
        }
        router.add(.get, "/slow") { _ in
            gate.arrived.add(1, ordering: .relaxed)
            while !gate.isOpen.load(ordering: .relaxed), !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(5))
            }
            return .text("slow done")
        }
        return router
    }

    static func withServer(
        _ configuration: HTTPServer.Configuration = .init(port: 0, maxBodyBytes: 1024),
        responder: any Responder = router(),
        _ body: (HTTPServer, Int) async throws -> Void
    ) async throws {
        var configuration = configuration
        configuration.logsLibraryErrors = false
        let server = HTTPServer(configuration: configuration, responder: responder)
        let port = try server.start()
        do {
            try await body(server, port)
        } catch {
            await server.shutdown(deadline: .milliseconds(100))
            throw error
        }
        await server.shutdown(deadline: .milliseconds(100))
    }

    @Test("a GET gets its body, a generated request id and JSON with path and query parameters")
    func get() async throws {
        try await Self.withServer { _, port in
            let client = try RawHTTPClient(port: port)
            try client.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            let health = try await client.response()
            #expect(health.status == 200)
            #expect(health.text == "ok")
            let id = try #require(health.header("X-Request-Id"))
            #expect(id.utf8.count == 32 && RequestID.isAcceptable(id))

            try client.write("GET /items/a%20b?q=x+y%21 HTTP/1.1\r\nHost: x\r\n\r\n")
            let item = try await client.response()
            #expect(item.status == 200)
            #expect(item.text == #"{"id":"a b","q":"x y!"}"#)
            #expect(item.header("Cache-Control") == "no-store")
        }
    }

    @Test("%00 in the path or a query value is not decoded: no path aliases another by truncation")
    func encodedNUL() async throws {
        try await Self.withServer { _, port in
            let client = try RawHTTPClient(port: port)
            for target in ["/healthz%00", "/healthz%00.txt", "/items/a%00b/../x"] {
                try client.write("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(try await client.response().status == 404, "\(target)")
            }
            try client.write("GET /items/a%00b HTTP/1.1\r\nHost: x\r\n\r\n")
            let item = try await client.response()
            #expect(item.status == 200)
            #expect(item.text == #"{"id":"a%00b","q":""}"#)
            try client.write("GET /items/z?q=x%00y%20 HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.response().text == #"{"id":"z","q":"x%00y%20"}"#)
            // Other escapes are decoded as before.
            try client.write("GET /items/a%41?q=%41%20 HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.response().text == #"{"id":"aA","q":"A "}"#)
        }
    }

    @Test("a POST body reaches the responder intact, with its Content-Type")
    func postBody() async throws {
        try await Self.withServer { _, port in
            let client = try RawHTTPClient(port: port)
            let body = #"{"a":[1,2,3]}"#
            try client.write(
                "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
            )
            let response = try await client.response()
            #expect(response.status == 200)
            #expect(response.text == body)
            #expect(response.header("Content-Type") == "application/json")
        }
    }

    @Test("a client that writes its whole oversized body before reading still reads the 413 (RFC 9112 §9.6)")
    func oversizedBodySentFirst() async throws {
        // 8 MiB: more than loopback socket buffers absorb, so without draining the client's write fails.
        let drain = HTTPServer.Configuration(port: 0, maxBodyBytes: 1024, maxDiscardBytes: 16 << 20)
        try await Self.withServer(drain) { _, port in
            let client = try RawHTTPClient(port: port)
            let body = [UInt8](repeating: UInt8(ascii: "a"), count: 8 << 20)
            try client.write(
                "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: \(body.count)\r\n\r\n")
            try await offPool { try client.write(body) }
            let response = try await client.response()
            #expect(response.status == 413)
            #expect(response.text.contains(#""error":"request_too_large""#))
            #expect(response.header("Connection")?.lowercased() == "close")
        }
    }

    @Test("a 2 MiB body declared over the limit, written whole before reading, still gets its 413 (RFC 9112 §9.6)")
    func oversizedDeclaredBodyWrittenFirst() async throws {
        // Default discard bounds: the 413 is queued from the declared length; the lingering close reads the rest.
        try await Self.withServer { _, port in
            let client = try RawHTTPClient(port: port)
            let body = [UInt8](repeating: UInt8(ascii: "a"), count: 2 << 20)
            try client.write(
                "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Content-Length: \(body.count)\r\n\r\n")
            try await offPool { try client.write(body) }
            let response = try await client.response()
            #expect(response.status == 413)
            #expect(response.text.contains(#""error":"request_too_large""#))
        }
    }

    @Test("a 413 for a declared length over the limit is sent before any of the body")
    func oversizedDeclaredBodyAnsweredAtOnce() async throws {
        try await Self.withServer { _, port in
            let client = try RawHTTPClient(port: port, timeout: 5)
            try client.write("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 2097152\r\n\r\n")
            let response = try await client.response()
            #expect(response.status == 413)
            #expect(response.header("Connection")?.lowercased() == "close")
        }
    }

    @Test("a chunked body that grows over the limit gets 413 after it is drained")
    func oversizedChunkedBody() async throws {
        try await Self.withServer { _, port in
            let client = try RawHTTPClient(port: port)
            try client.write(
                "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n")
            let chunk = String(repeating: "b", count: 600)
            for _ in 0..<5 {
                try client.write("258\r\n\(chunk)\r\n")
            }
            try client.write("0\r\n\r\n")
            let response = try await client.response()
            #expect(response.status == 413)
            #expect(response.header("Connection")?.lowercased() == "close")
        }
    }

    @Test("a body exactly at the limit is accepted")
    func bodyAtLimit() async throws {
        try await Self.withServer { _, port in
            let client = try RawHTTPClient(port: port)
            let body = String(repeating: "c", count: 1024)
            try client.write("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1024\r\n\r\n\(body)")
            let response = try await client.response()
            #expect(response.status == 200)
            #expect(response.body.count == 1024)
        }
    }

    @Test("a sane X-Request-Id is echoed; an unsafe one is replaced by a generated id")
    func requestIDEcho() async throws {
        try await Self.withServer { _, port in
            let client = try RawHTTPClient(port: port)
            try client.write("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Request-Id: abc.DEF_12-3\r\n\r\n")
            #expect(try await client.response().header("X-Request-Id") == "abc.DEF_12-3")
            try client.write("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Request-Id: a b;c\r\n\r\n")
            let generated = try #require(try await client.response().header("X-Request-Id"))
            #expect(generated != "a b;c" && generated.utf8.count == 32)
        }
    }

    @Test("HEAD on a GET route sends the headers without the body")
    func head() async throws {
        try await Self.withServer { _, port in
            let client = try RawHTTPClient(port: port)
            try client.write("HEAD /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try await client.response(head: true)
            #expect(response.status == 200)
            try client.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.response().text == "ok")
        }
    }

    @Test("shutdown lets the request in flight finish and refuses new connections")
    func gracefulShutdown() async throws {
        var configuration = HTTPServer.Configuration(port: 0)
        configuration.logsLibraryErrors = false
        let gate = SlowGate()
        let server = HTTPServer(configuration: configuration, responder: Self.router(slow: gate))
        let port = try server.start()
        let client = try RawHTTPClient(port: port)
        try client.write("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        try await gate.awaitArrival()
        // The deadline only bounds a broken shutdown: a working one returns as soon as /slow has answered.
        async let stopped: Void = server.shutdown(deadline: .seconds(60))
        #expect(try await eventually { (try? RawHTTPClient(port: port)) == nil }, "still accepting connections")
        gate.open()
        let response = try await client.response()
        #expect(response.status == 200)
        #expect(response.text == "slow done")
        #expect(response.header("Connection")?.lowercased() == "close")
        await stopped
    }

    @Test("a responder that overruns the request deadline yields 503")
    func deadline() async throws {
        try await Self.withServer(.init(port: 0, requestDeadline: .milliseconds(100))) { _, port in
            let client = try RawHTTPClient(port: port)
            try client.write("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try await client.response()
            #expect(response.status == 503)
            #expect(response.text.contains("temporarily_unavailable"))
            // RFC 9110 §10.2.3: the transport's own 503 says when to retry, as every 503 does.
            #expect(response.header("Retry-After") == String(Response.serviceUnavailableRetryAfterSeconds))
        }
    }

    @Test("an idle half-sent request is closed by the connection timeout")
    func connectionTimeout() async throws {
        try await Self.withServer(.init(port: 0, connectionTimeout: .seconds(1))) { _, port in
            let client = try RawHTTPClient(port: port, timeout: 4)
            try client.write("GET /healthz HTTP/1.1\r\nHost: x\r\n")
            #expect(try await client.closedByServer())
        }
    }

    @Test("a response header carrying CR/LF is dropped, never split into two headers")
    func headerInjection() async throws {
        try await Self.withServer { _, port in
            let client = try RawHTTPClient(port: port)
            try client.write("GET /inject HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try await client.response()
            #expect(response.status == 200)
            #expect(response.header("X-Good") == "yes")
            #expect(response.header("Set-Cookie") == nil)
            #expect(response.header("X-Bad") == nil)
        }
    }

    @Test("two cookies go on the wire as two Set-Cookie fields, in order")
    func twoCookies() async throws {
        try await Self.withServer { _, port in
            let client = try RawHTTPClient(port: port)
            try client.write("GET /cookies HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try await client.response()
            #expect(response.status == 204)
            let cookies = response.headers.filter { $0.0.lowercased() == "set-cookie" }.map(\.1)
            #expect(
                cookies == [
                    "a=1; Path=/; Max-Age=60; Secure; HttpOnly; SameSite=Lax",
                    "b=2; Path=/; Max-Age=0; Secure; HttpOnly; SameSite=Strict",
                ])
        }
    }

    @Test("a chunked body within the limit is reassembled for the responder")
    func chunkedBody() async throws {
        try await Self.withServer { _, port in
            let client = try RawHTTPClient(port: port)
            try client.write("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
            try client.write("3\r\nabc\r\n4\r\ndefg\r\n0\r\n\r\n")
            let response = try await client.response()
            #expect(response.status == 200)
            #expect(response.text == "abcdefg")
        }
    }
}
