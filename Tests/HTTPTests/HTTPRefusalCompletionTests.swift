import Synchronization
import TestSupport
import Testing

@testable import HTTP

/// `Responder.completeRefusal`: the transport's own 413 and 503 pass through the responder, which may add fields
/// (as passkeyd's CORS layer does) before they are sent.
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

    /// The fields `MarkingResponder` adds, as (path, origin, body length); `nil` for each one absent.
    static func marks(_ response: RawHTTPClient.Response) -> [String?] {
        ["X-Refused-Path", "X-Refused-Origin", "X-Refused-Body"].map { response.header($0) }
    }

    func withServer(_ body: (Int) async throws -> Void) async throws {
        try await HTTPServerTests.withServer(.init(port: 0, maxBodyBytes: 16), responder: MarkingResponder()) {
            _, port in try await body(port)
        }
    }

    @Test("a 413 answered from the declared length carries the responder's fields, and is still a 413")
    func declared() async throws {
        try await withServer { port in
            let client = try RawHTTPClient(port: port)
            let body = String(repeating: "x", count: 100)
            try client.write(
                "POST /oauth/token HTTP/1.1\r\nHost: x\r\nOrigin: https://app.example\r\nContent-Length: 100\r\n\r\n\(body)"
            )
            let response = try await client.response()
            #expect(response.status == 413)
            #expect(response.text.contains(#""error":"request_too_large""#))
            #expect(Self.marks(response) == ["/oauth/token", "https://app.example", "0"])
        }
    }

    @Test("a 413 after a chunked body was drained carries them too")
    func drained() async throws {
        try await withServer { port in
            let client = try RawHTTPClient(port: port)
            let chunk = String(repeating: "x", count: 40)
            try client.write(
                "POST /oauth/token HTTP/1.1\r\nHost: x\r\nOrigin: https://app.example\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n28\r\n\(chunk)\r\n0\r\n\r\n")
            let response = try await client.response()
            #expect(response.status == 413)
            #expect(Self.marks(response) == ["/oauth/token", "https://app.example", "0"])
        }
    }

    @Test("the framing and method refusals (400, 501) carry them too")
    func framing() async throws {
        try await withServer { port in
            let client = try RawHTTPClient(port: port)
            try client.write("PROPFIND /oauth/token HTTP/1.1\r\nHost: x\r\nOrigin: https://app.example\r\n\r\n")
            let notImplemented = try await client.response()
            #expect(notImplemented.status == 501)
            #expect(Self.marks(notImplemented) == ["/oauth/token", "https://app.example", "0"])
            let second = try RawHTTPClient(port: port)
            try second.write("GET /oauth/token HTTP/1.1\r\nOrigin: https://app.example\r\n\r\n")
            let malformed = try await second.response()
            #expect(malformed.status == 400)
            #expect(Self.marks(malformed) == ["/oauth/token", "https://app.example", "0"])
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
            #expect(Self.marks(response) == ["/passkey/register", "none", "0"])
        }
    }

    /// Answers `/slow` only after `delay`, unless its task is cancelled first; records what happened to it.
    final class SlowResponder: Responder {
        /// How the last `/slow` request ended: "cancelled" or "finished" (empty while it runs).
        let outcome = Mutex("")
        /// How many requests reached `/slow`.
        let arrived = Atomic<Int>(0)
        let delay: Duration

        init(delay: Duration) { self.delay = delay }

        func respond(to request: Request) async -> Response {
            guard request.path == "/slow" else { return .text("ok") }
            arrived.add(1, ordering: .relaxed)
            let cancelled = (try? await Task.sleep(for: delay)) == nil
            outcome.withLock { $0 = cancelled ? "cancelled" : "finished" }
            return .text("slow done")
        }

        func completeRefusal(_ response: inout Response, to request: Request) {
            MarkingResponder().completeRefusal(&response, to: request)
        }

        /// Waits for the outcome to be recorded (empty if it never is).
        func awaitOutcome() async throws -> String {
            _ = try await eventually { !self.outcome.withLock { $0 }.isEmpty }
            return outcome.withLock { $0 }
        }

        /// Waits until a request reached `/slow`.
        func awaitArrival() async throws {
            let reached = try await eventually { self.arrived.load(ordering: .relaxed) > 0 }
            try #require(reached, "the request never reached /slow")
        }
    }

    /// Runs `body` against a server whose `/slow` answers after `delay`, with a client connected to it.
    func withSlowServer(
        delay: Duration, deadline: Duration,
        _ body: (HTTPServer, RawHTTPClient, SlowResponder) async throws -> Void
    ) async throws {
        let responder = SlowResponder(delay: delay)
        try await HTTPServerTests.withServer(.init(port: 0, requestDeadline: deadline), responder: responder) {
            server, port in try await body(server, try RawHTTPClient(port: port), responder)
        }
    }

    @Test("a 503 for a responder past its deadline carries the responder's fields, and its task is cancelled")
    func deadline() async throws {
        try await withSlowServer(delay: .seconds(30), deadline: .milliseconds(100)) { _, client, responder in
            try client.write("GET /slow HTTP/1.1\r\nHost: x\r\nOrigin: https://app.example\r\n\r\n")
            let response = try await client.response()
            #expect(response.status == 503)
            #expect(response.text.contains(#""error":"temporarily_unavailable""#))
            #expect(Self.marks(response) == ["/slow", "https://app.example", "0"])
            // Without the cancellation the responder would sleep its 30 s and record "finished".
            #expect(try await responder.awaitOutcome() == "cancelled")
        }
    }

    @Test("a responder that finishes in time is not cancelled and its own answer is sent")
    func inTime() async throws {
        try await withSlowServer(delay: .milliseconds(20), deadline: .seconds(60)) { _, client, responder in
            try client.write("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try await client.response()
            #expect(response.status == 200)
            #expect(Self.marks(response) == [nil, nil, nil])
            #expect(try await responder.awaitOutcome() == "finished")
        }
    }

    @Test("the 503 for a request that shutdown cut short carries the fields too, and its task is cancelled")
    func shutdown() async throws {
        try await withSlowServer(delay: .seconds(30), deadline: .seconds(60)) { server, client, responder in
            try client.write(
                "POST /slow HTTP/1.1\r\nHost: x\r\nOrigin: https://app.example\r\nContent-Length: 2\r\n\r\nhi")
            try await responder.awaitArrival()
            async let stopped: Void = server.shutdown(deadline: .milliseconds(100))
            let response = try await client.response()
            #expect(response.status == 503)
            #expect(response.header("Retry-After") == "1")
            #expect(Self.marks(response) == ["/slow", "https://app.example", "0"])
            await stopped
            #expect(try await responder.awaitOutcome() == "cancelled")
        }
    }
}
