import Synchronization
import TestSupport
import Testing

@testable import HTTP

/// Run to completion: a route registered with `Router.addInline` is answered on the thread that read the request,
/// with no task and no suspension, and exactly as the same handler registered with `Router.add` is.
@Suite("HTTPServer: inline answers (run to completion)", .serialized)
struct HTTPInlineTests {
    /// How requests were answered: through `respondInline` or `respond`, and whether a handler ran in a task.
    final class Recorder: Sendable {
        let inline = Atomic<Int>(0)
        let suspended = Atomic<Int>(0)
        let handlersInTask = Atomic<Int>(0)
        let handlersOutsideTask = Atomic<Int>(0)

        /// Counts the handler call it is made in.
        func noteHandler() {
            if withUnsafeCurrentTask(body: { $0 != nil }) {
                handlersInTask.add(1, ordering: .relaxed)
            } else {
                handlersOutsideTask.add(1, ordering: .relaxed)
            }
        }
    }

    /// The router under test, counting how the transport reaches it.
    struct CountingResponder: Responder {
        let router: Router
        let recorder: Recorder

        func respond(to request: Request) async -> Response {
            recorder.suspended.add(1, ordering: .relaxed)
            return await router.respond(to: request)
        }

        func respondInline(to request: Request) -> Response? {
            let response = router.respondInline(to: request)
            if response != nil { recorder.inline.add(1, ordering: .relaxed) }
            return response
        }

        func route(for request: Request) -> String? { router.route(for: request) }
    }

    /// Each handler registered twice, under `/async/…` with `add` and under `/inline/…` with `addInline`; and
    /// `/async/held`, which commits its request (`RequestCommitment`) when `commits`, then waits for `gate`.
    static func responder(
        _ recorder: Recorder, gate: HTTPServerTests.SlowGate = .init(), commits: Bool = false
    ) -> CountingResponder {
        let handlers: [(HTTPMethod, String, Router.InlineHandler)] = [
            (
                .get, "ok",
                { _ in
                    recorder.noteHandler()
                    return Response(status: 200, headers: ["X-Mark": "yes", "Content-Type": "text/plain"], body: [65])
                }
            ),
            // A 503 of the handler's own: the router adds its Retry-After on either path.
            (.get, "busy", { _ in .error(status: 503, error: "temporarily_unavailable", description: "busy") }),
            (
                .post, "echo",
                { request in
                    var response = Response(status: 200, body: request.body)
                    response.headers.add(name: "Content-Type", value: request.headers["Content-Type"] ?? "none")
                    return response
                }
            ),
        ]
        var router = Router()
        for (method, name, handler) in handlers {
            router.add(method, "/async/\(name)") { handler($0) }
            router.addInline(method, "/inline/\(name)", handler)
        }
        router.add(.get, "/async/held") { _ in
            if commits { try? RequestCommitment.current?.commit() }
            gate.arrived.add(1, ordering: .relaxed)
            while !gate.isOpen.load(ordering: .relaxed) {
                try? await Task.sleep(for: .milliseconds(5))
            }
            return .text("held")
        }
        return CountingResponder(router: router, recorder: recorder)
    }

    /// Idle and read timeouts far beyond any test's length: the tests send a connection's next request only after
    /// awaiting the previous answer, and on a loaded machine (the whole suite in parallel on 2 cores) that await can
    /// last longer than the defaults' 10 s read timeout and 30 s idle timeout, which would close the connection
    /// under the test (a CI run saw that EOF).
    static func configuration() -> HTTPServer.Configuration {
        var configuration = HTTPServer.Configuration(
            port: 0, maxBodyBytes: 1024, connectionTimeout: .seconds(3_600), requestReadTimeout: .seconds(3_600),
            perAddressConnectionLimit: 0)
        configuration.logsLibraryErrors = false
        return configuration
    }

    /// The fields of `response` that do not change from one request to the next (not `Date`, not the request id).
    static func stableFields(_ response: RawHTTPClient.Response) -> [String] {
        response.headers.filter { !["date", "x-request-id"].contains($0.0.lowercased()) }.map { "\($0.0): \($0.1)" }
            .sorted()
    }

    @Test("an inline route is answered with no task and no suspension; an async one in a task")
    func noTask() async throws {
        let recorder = Recorder()
        try await HTTPServerTests.withServer(Self.configuration(), responder: Self.responder(recorder)) { _, port in
            let client = try RawHTTPClient(port: port)
            try client.write("GET /inline/ok HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.response().status == 200)
            #expect(recorder.inline.load(ordering: .relaxed) == 1)
            #expect(recorder.suspended.load(ordering: .relaxed) == 0)
            #expect(recorder.handlersOutsideTask.load(ordering: .relaxed) == 1)
            #expect(recorder.handlersInTask.load(ordering: .relaxed) == 0)

            try client.write("GET /async/ok HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.response().status == 200)
            #expect(recorder.suspended.load(ordering: .relaxed) == 1)
            #expect(recorder.handlersInTask.load(ordering: .relaxed) == 1)
        }
    }

    @Test(
        "inline and async answers carry the same status, fields and body, and the same observer events",
        arguments: [
            ("GET", "ok", ""), ("GET", "busy", ""), ("HEAD", "ok", ""), ("POST", "echo", #"{"a":1}"#),
            // 405 with Allow, labelled with the route; and a 404 under each prefix.
            ("POST", "ok", ""), ("GET", "missing", ""),
        ])
    func sameAnswers(method: String, name: String, body: String) async throws {
        let recorder = Recorder()
        let observer = RecordingObserver()
        let server = HTTPServer(
            configuration: Self.configuration(), responder: Self.responder(recorder), observer: observer)
        let port = try server.start()
        var answers: [RawHTTPClient.Response] = []
        for prefix in ["async", "inline"] {
            let client = try RawHTTPClient(port: port)
            var request = "\(method) /\(prefix)/\(name) HTTP/1.1\r\nHost: x\r\nX-Request-Id: \(prefix)-1\r\n"
            if !body.isEmpty {
                request += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
            }
            try client.write(request + "\r\n" + body)
            answers.append(try await client.response(head: method == "HEAD"))
        }
        await server.shutdown(deadline: .milliseconds(100))
        #expect(answers[0].status == answers[1].status)
        #expect(Self.stableFields(answers[0]) == Self.stableFields(answers[1]))
        #expect(answers[0].body == answers[1].body)
        if method == "POST" && name == "echo" { #expect(answers[1].text == body) }
        if name == "busy" { #expect(answers[1].header("Retry-After") == "1") }
        if method == "POST" && name == "ok" { #expect(answers[1].header("Allow") == "GET, HEAD") }
        #expect(recorder.inline.load(ordering: .relaxed) >= 1)

        let events = observer.events.withLock { $0 }
        #expect(observer.started.load(ordering: .relaxed) == 2)
        try #require(events.count == 2)
        let byID = Dictionary(uniqueKeysWithValues: events.map { ($0.requestID, $0) })
        let (async, inline) = (try #require(byID["async-1"]), try #require(byID["inline-1"]))
        #expect(async.status == inline.status)
        #expect(async.method == inline.method)
        if name == "missing" {
            #expect(inline.route == CompletedRequest.unmatchedRoute)
            #expect(async.route == CompletedRequest.unmatchedRoute)
        } else {
            #expect(async.route == "/async/\(name)")
            #expect(inline.route == "/inline/\(name)")
        }
    }

    @Test("while shutdown drains, an inline answer says Connection: close, as an async one does")
    func draining() async throws {
        let recorder = Recorder()
        let gate = HTTPServerTests.SlowGate()
        let server = HTTPServer(configuration: Self.configuration(), responder: Self.responder(recorder, gate: gate))
        let port = try server.start()
        let held = try RawHTTPClient(port: port)
        try held.write("GET /async/held HTTP/1.1\r\nHost: x\r\n\r\n")
        try await gate.awaitArrival()
        let inlineClient = try RawHTTPClient(port: port)
        let asyncClient = try RawHTTPClient(port: port)
        // Accepted by the daemon before it stops listening.
        for client in [inlineClient, asyncClient] {
            try client.write("GET /inline/ok HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.response().header("Connection") == nil)
        }
        // The held request keeps the drain going until the gate opens.
        let stopping = Task { await server.shutdown(deadline: .seconds(60)) }
        var inline: RawHTTPClient.Response?
        let end = ContinuousClock.now + .seconds(60)
        while inline == nil, ContinuousClock.now < end {
            let response = try await Self.ask(inlineClient)
            #expect(response.status == 200)
            if response.header("Connection") == "close" {
                inline = response
            } else {
                try await Task.sleep(for: .milliseconds(10))  // shutdown has not begun: ask again
            }
        }
        try asyncClient.write("GET /async/ok HTTP/1.1\r\nHost: x\r\n\r\n")
        let async = try await asyncClient.response()
        gate.open()
        await stopping.value
        let answer = try #require(inline)
        #expect(answer.status == 200)
        #expect(async.status == 200)
        #expect(Self.stableFields(answer) == Self.stableFields(async))
        #expect(try await held.response().status == 200)
    }

    @Test("once shutdown has closed the dispatcher, an inline route gets the same 503 as an async one")
    func closed() async throws {
        let recorder = Recorder()
        let gate = HTTPServerTests.SlowGate()
        let server = HTTPServer(
            configuration: Self.configuration(), responder: Self.responder(recorder, gate: gate, commits: true))
        let port = try server.start()
        let held = try RawHTTPClient(port: port)
        try held.write("GET /async/held HTTP/1.1\r\nHost: x\r\n\r\n")
        try await gate.awaitArrival()
        // Connections the daemon has accepted (each one answered once), used one after the other: an answer sent
        // while shutdown runs closes its connection.
        var clients: [RawHTTPClient] = []
        for index in 0..<32 {
            let client = try RawHTTPClient(port: port)
            try client.write("GET /inline/ok HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try await client.response()
            #expect(response.status == 200, "connection \(index): \(response.status) \(response.headers)")
            clients.append(client)
        }
        // The held request has committed: shutdown waits for it with the dispatcher closed.
        let stopping = Task { await server.shutdown(deadline: .zero) }
        var refused: RawHTTPClient.Response?
        while refused == nil, !clients.isEmpty {
            let client = clients[0]
            try client.write("GET /inline/ok HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try await client.response()
            #expect([200, 503].contains(response.status))
            if response.status == 503 { refused = response }
            if response.header("Connection") == "close" { clients.removeFirst() }
        }
        let inline = try #require(refused, "no request was refused while shutdown waited for the held one")
        let asyncClient = try #require(clients.first, "no connection left for the async request")
        try asyncClient.write("GET /async/ok HTTP/1.1\r\nHost: x\r\n\r\n")
        let async = try await asyncClient.response()
        gate.open()
        await stopping.value
        #expect(inline.header("Connection") == "close")
        #expect(inline.header("Retry-After") == "1")
        #expect(async.status == 503)
        #expect(Self.stableFields(inline) == Self.stableFields(async))
        #expect(inline.body == async.body)
        #expect(try await held.response().status == 200)
    }

    @Test("shutdown while inline requests keep arriving completes, and every request is answered or observed")
    func shutdownUnderLoad() async throws {
        let recorder = Recorder()
        let observer = RecordingObserver()
        let server = HTTPServer(
            configuration: Self.configuration(), responder: Self.responder(recorder), observer: observer)
        let port = try server.start()
        var clients: [RawHTTPClient] = []
        for _ in 0..<8 {
            let client = try RawHTTPClient(port: port)
            try client.write("GET /inline/ok HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.response().status == 200)
            clients.append(client)
        }
        let statuses = Statuses()
        await withTaskGroup(of: Void.self) { group in
            for client in clients {
                group.addTask {
                    // Until the connection's last answer (Connection: close) or its end.
                    while let response = try? await Self.ask(client), response.header("Connection") != "close" {
                        statuses.values.withLock { $0.append(response.status) }
                    }
                }
            }
            group.addTask {
                // Once requests are flowing on every connection.
                _ = try? await eventually { recorder.inline.load(ordering: .relaxed) >= 64 }
                await server.shutdown(deadline: .milliseconds(200))
            }
        }
        #expect(statuses.values.withLock { $0 }.allSatisfy { [200, 503].contains($0) })
        #expect(observer.started.load(ordering: .relaxed) == observer.events.withLock { $0.count })
        #expect(recorder.suspended.load(ordering: .relaxed) == 0)
    }

    /// The statuses the clients of `shutdownUnderLoad` received.
    final class Statuses: Sendable {
        let values = Mutex<[Int]>([])
    }

    /// One inline request on `client`, and its answer.
    static func ask(_ client: RawHTTPClient) async throws -> RawHTTPClient.Response {
        try client.write("GET /inline/ok HTTP/1.1\r\nHost: x\r\n\r\n")
        return try await client.response()
    }
}
