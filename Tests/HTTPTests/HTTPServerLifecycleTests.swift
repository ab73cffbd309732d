import Foundation
import Synchronization
import Testing

@testable import HTTP

/// Collects observer events.
final class RecordingObserver: RequestObserver {
    let started = Atomic<Int>(0)
    let events = Mutex<[CompletedRequest]>([])

    func requestStarted() {
        started.add(1, ordering: .relaxed)
    }

    func requestCompleted(_ event: CompletedRequest) {
        events.withLock { $0.append(event) }
    }
}

@Suite("HTTPServer lifecycle, limits and observation", .serialized)
struct HTTPServerLifecycleTests {
    static func quiet(_ configuration: HTTPServer.Configuration) -> HTTPServer.Configuration {
        var configuration = configuration
        configuration.logsLibraryErrors = false
        return configuration
    }

    @Test("the observer sees one start and one completion per request, with route, status and id")
    func observer() async throws {
        let observer = RecordingObserver()
        let server = HTTPServer(
            configuration: Self.quiet(.init(port: 0)), responder: HTTPServerTests.router(), observer: observer)
        let port = try server.start()
        let client = try RawHTTPClient(port: port)
        try client.write("GET /items/7 HTTP/1.1\r\nHost: x\r\nX-Request-Id: obs-1\r\n\r\n")
        _ = try await client.response()
        try client.write("GET /missing HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try await client.response()
        await server.shutdown(deadline: .milliseconds(100))
        let events = observer.events.withLock { $0 }
        #expect(observer.started.load(ordering: .relaxed) == 2)
        try #require(events.count == 2)
        #expect(events[0].route == "/items/{id}")
        #expect(events[0].status == 200)
        #expect(events[0].requestID == "obs-1")
        #expect(events[0].method == .get)
        #expect(events[0].remoteAddress == "127.0.0.1")
        #expect(events[0].duration >= 0)
        #expect(events[1].route == CompletedRequest.unmatchedRoute)
        #expect(events[1].status == 404)
    }

    @Test("a responder still running when the shutdown deadline passes gets 503, and shutdown completes")
    func shutdownCutsOverrun() async throws {
        let gate = HTTPServerTests.SlowGate()
        let server = HTTPServer(
            configuration: Self.quiet(.init(port: 0)), responder: HTTPServerTests.router(slow: gate))
        let port = try server.start()
        let client = try RawHTTPClient(port: port)
        try client.write("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        try await gate.awaitArrival()
        await server.shutdown(deadline: .milliseconds(20))
        let response = try await client.response()
        #expect(response.status == 503)
        #expect(response.header("Retry-After") == "1")
    }

    @Test("a deadline's 503 carries Retry-After and is observed under the route it belonged to, not \"unmatched\"")
    func deadlineRoute() async throws {
        let observer = RecordingObserver()
        let gate = HTTPServerTests.SlowGate()
        let server = HTTPServer(
            configuration: Self.quiet(.init(port: 0, requestDeadline: .milliseconds(100))),
            responder: HTTPServerTests.router(slow: gate), observer: observer)
        let port = try server.start()
        let client = try RawHTTPClient(port: port)
        try client.write("GET /slow HTTP/1.1\r\nHost: x\r\nX-Request-Id: late-1\r\n\r\n")
        let response = try await client.response()
        await server.shutdown(deadline: .milliseconds(100))
        #expect(response.status == 503)
        #expect(response.header("Retry-After") == "1")
        let events = observer.events.withLock { $0 }
        try #require(events.count == 1)
        #expect(events[0].route == "/slow")
        #expect(events[0].status == 503)
        #expect(events[0].requestID == "late-1")
    }

    @Test("the HTTP layer's refusals are observed under the path's route, else \"transport\", never \"unmatched\"")
    func transportRefusalRoutes() async throws {
        let observer = RecordingObserver()
        let server = HTTPServer(
            configuration: Self.quiet(.init(port: 0, maxBodyBytes: 10)), responder: HTTPServerTests.router(),
            observer: observer)
        let port = try server.start()
        let requests = [
            // 413 from the declared length, to a route.
            "POST /echo HTTP/1.1\r\nHost: x\r\nX-Request-Id: big-1\r\nContent-Length: 100\r\n\r\n",
            // 501, an unsupported transfer coding, to a route.
            "POST /echo HTTP/1.1\r\nHost: x\r\nX-Request-Id: gzip-1\r\nTransfer-Encoding: gzip\r\n\r\n",
            // 400, ambiguous framing, to a path that has no route.
            "POST /nowhere HTTP/1.1\r\nHost: x\r\nX-Request-Id: bad-1\r\nContent-Length: 1\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n",
        ]
        var statuses: [Int] = []
        for request in requests {
            let client = try RawHTTPClient(port: port)
            try client.write(request)
            statuses.append(try await client.response().status)
        }
        await server.shutdown(deadline: .milliseconds(100))
        #expect(statuses == [413, 501, 400])
        let routes = Dictionary(
            observer.events.withLock { $0 }.map { ($0.requestID, "\($0.route) \($0.status)") },
            uniquingKeysWith: { first, _ in first })
        #expect(routes["big-1"] == "/echo 413")
        #expect(routes["gzip-1"] == "/echo 501")
        #expect(routes["bad-1"] == "\(CompletedRequest.transportRoute) 400")
    }

    @Test("Expect: 100-continue with an oversized Content-Length is answered 413 before the body")
    func expectContinue() async throws {
        let server = HTTPServer(
            configuration: Self.quiet(.init(port: 0, maxBodyBytes: 10)), responder: HTTPServerTests.router())
        let port = try server.start()
        let client = try RawHTTPClient(port: port)
        try client.write("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n")
        let response = try await client.response()
        #expect(response.status == 413)
        await server.shutdown(deadline: .milliseconds(100))
    }

    @Test("an upload beyond the discard bound is cut off without a response")
    func discardBound() async throws {
        let configuration = Self.quiet(.init(port: 0, maxBodyBytes: 10, maxDiscardBytes: 100))
        let server = HTTPServer(configuration: configuration, responder: HTTPServerTests.router())
        let port = try server.start()
        let client = try RawHTTPClient(port: port)
        try client.write("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        try? client.write("1F4\r\n" + String(repeating: "d", count: 500) + "\r\n")
        #expect(try await client.closedByServer())
        await server.shutdown(deadline: .milliseconds(100))
    }

    @Test("a connection beyond the connection limit waits until a slot frees")
    func connectionLimit() async throws {
        let server = HTTPServer(
            configuration: Self.quiet(.init(port: 0, connectionLimit: 1, threads: 1)),
            responder: HTTPServerTests.router())
        let port = try server.start()
        let first = try RawHTTPClient(port: port)
        try first.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await first.response().status == 200)
        let second = try RawHTTPClient(port: port)
        try second.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        try await Task.sleep(for: .milliseconds(200))
        #expect(!second.hasPendingBytes())
        first.hangUp()
        #expect(try await second.response().status == 200)
        await server.shutdown(deadline: .milliseconds(100))
    }

    @Test("start refuses a second start, a host that is not an address literal, and an out-of-range port")
    func startErrors() async throws {
        let server = HTTPServer(configuration: Self.quiet(.init(port: 0)), responder: Router())
        let port = try server.start()
        #expect(throws: HTTPError(.invalidState, "")) { try server.start() }
        let clash = HTTPServer(configuration: Self.quiet(.init(port: port)), responder: Router())
        #expect(throws: HTTPError(.startFailed, "")) { try clash.start() }
        await server.shutdown(deadline: .milliseconds(100))
        #expect(throws: HTTPError(.invalidState, "")) { try server.start() }
        #expect(throws: HTTPError(.invalidConfiguration, "")) {
            try HTTPServer(configuration: Self.quiet(.init(host: "localhost", port: 0)), responder: Router()).start()
        }
        #expect(throws: HTTPError(.invalidConfiguration, "")) {
            try HTTPServer(configuration: Self.quiet(.init(port: 70_000)), responder: Router()).start()
        }
        #expect(throws: HTTPError(.invalidConfiguration, "")) {
            try HTTPServer(configuration: Self.quiet(.init(port: 0, threads: 0)), responder: Router()).start()
        }
    }

    @Test("IPv6 loopback binds")
    func ipv6() async throws {
        let server = HTTPServer(configuration: Self.quiet(.init(host: "::1", port: 0)), responder: Router())
        do {
            let port = try server.start()
            #expect(port > 0)
        } catch {
            // A host without IPv6 loopback cannot bind; the address was still accepted as a literal.
            #expect(error.code == .startFailed)
        }
        await server.shutdown(deadline: .milliseconds(100))
    }

    @Test("with TLS files the server starts and does not answer plain HTTP; unreadable files are refused")
    func tls() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "passkeyd-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let certificate = directory.appendingPathComponent("cert.pem")
        let key = directory.appendingPathComponent("key.pem")
        try TestTLSMaterial.certificatePEM.write(to: certificate, atomically: true, encoding: .utf8)
        try TestTLSMaterial.privateKeyPEM.write(to: key, atomically: true, encoding: .utf8)

        let tls = HTTPServer.TLSConfiguration(certificatePath: certificate.path, privateKeyPath: key.path)
        let server = HTTPServer(
            configuration: Self.quiet(.init(port: 0, tls: tls)), responder: HTTPServerTests.router())
        let port = try server.start()
        let client = try RawHTTPClient(port: port)
        try? client.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        await #expect(throws: RawHTTPClient.Failure.self) { try await client.response() }
        await server.shutdown(deadline: .milliseconds(100))

        let missing = HTTPServer.TLSConfiguration(
            certificatePath: directory.appendingPathComponent("none").path, privateKeyPath: key.path)
        #expect(throws: HTTPError(.invalidConfiguration, "")) {
            try HTTPServer(configuration: Self.quiet(.init(port: 0, tls: missing)), responder: Router()).start()
        }
    }
}
