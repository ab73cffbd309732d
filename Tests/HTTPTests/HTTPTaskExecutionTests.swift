import Dispatch
import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing

@testable import HTTP

/// Run to completion for requests that wait (issue #35, point 2): a request's task runs on the libmicrohttpd thread
/// that read it, before and after it waits for work done on another thread, and the deadline, shutdown and a
/// client leaving still end it as they did when it ran on the cooperative pool.
@Suite("HTTPServer: a request's task runs on the thread that read it", .serialized)
struct HTTPTaskExecutionTests {
    /// The calling thread's identity.
    static func currentThread() -> UInt { UInt(pthread_self()) }

    /// A wait the handlers enter and the test ends, from a thread of its own (neither the pool nor an MHD thread),
    /// as a database writer resumes the requests of its group commit.
    final class Latch: Sendable {
        private struct State {
            var waiters: [CheckedContinuation<Void, Never>] = []
            var isOpen = false
        }

        private let state = Mutex(State())
        /// How many waits began.
        let arrived = Atomic<Int>(0)
        /// How many waits ended (the code after them ran).
        let left = Atomic<Int>(0)
        /// The threads the code after each wait ran on.
        let threadsAfter = Mutex<[UInt]>([])

        /// Waits until `open()`.
        func wait() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let isOpen = state.withLock { state -> Bool in
                    if !state.isOpen { state.waiters.append(continuation) }
                    return state.isOpen
                }
                arrived.add(1, ordering: .relaxed)
                if isOpen { continuation.resume() }
            }
            threadsAfter.withLock { $0.append(HTTPTaskExecutionTests.currentThread()) }
            left.add(1, ordering: .relaxed)
        }

        /// Ends every wait, from a new thread, or from the calling thread when `here`.
        func open(here: Bool = false) {
            let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.isOpen = true
                defer { state.waiters = [] }
                return state.waiters
            }
            guard !here else {
                for waiter in waiters { waiter.resume() }
                return
            }
            Thread.detachNewThread {
                for waiter in waiters { waiter.resume() }
            }
        }
    }

    /// A serial executor on a private queue, as the SQLite writer's actor has.
    final class QueueExecutor: SerialExecutor {
        private let queue = DispatchQueue(label: "passkeyd.test.queue-actor")

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            let executor = asUnownedSerialExecutor()
            queue.async { job.runSynchronously(on: executor) }
        }
    }

    /// An actor on its own queue: calling it hops off the MHD thread, and returning from it hops back.
    actor QueueActor {
        private let executor = QueueExecutor()
        nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

        /// The thread the actor runs on.
        func thread() -> UInt { HTTPTaskExecutionTests.currentThread() }
    }

    /// The threads each part of a request ran on.
    final class Threads: Sendable {
        let marks = Mutex<[String: UInt]>([:])

        func mark(_ name: String) { marks.withLock { $0[name] = HTTPTaskExecutionTests.currentThread() } }
        subscript(_ name: String) -> UInt? { marks.withLock { $0[name] } }
    }

    /// `/inline` (the reading thread, for reference), `/sync` (a task that never waits), `/hops` (an actor on a
    /// queue, a continuation resumed from another thread, a child task, an unstructured task) and `/wait` (waits for
    /// `latch`).
    static func router(_ threads: Threads, latch: Latch, actor: QueueActor = QueueActor()) -> Router {
        var router = Router()
        router.addInline(.get, "/inline") { _ in
            threads.mark("inline")
            return .text("inline")
        }
        router.add(.get, "/sync") { _ in
            threads.mark("sync")
            return .text("sync")
        }
        router.add(.get, "/hops") { _ in
            threads.mark("start")
            let actorThread = await actor.thread()
            threads.marks.withLock { $0["actor"] = actorThread }
            threads.mark("after actor")
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Thread.detachNewThread { continuation.resume() }
            }
            threads.mark("after continuation")
            async let child: UInt = HTTPTaskExecutionTests.currentThread()
            let childThread = await child
            threads.marks.withLock { $0["child"] = childThread }
            let unstructured = await Task { HTTPTaskExecutionTests.currentThread() }.value
            threads.marks.withLock { $0["unstructured"] = unstructured }
            return .text("hops")
        }
        router.add(.get, "/wait") { _ in
            await latch.wait()
            return .text("waited")
        }
        router.add(.get, "/release") { _ in
            threads.mark("release")
            latch.open(here: true)
            return .text("released")
        }
        return router
    }

    /// One polling thread, so that every request is read by the same thread; long idle and read timeouts.
    static func configuration(requestDeadline: Duration = .seconds(30)) -> HTTPServer.Configuration {
        var configuration = HTTPServer.Configuration(
            port: 0, connectionTimeout: .seconds(3_600), requestReadTimeout: .seconds(3_600),
            perAddressConnectionLimit: 0, requestDeadline: requestDeadline, threads: 1)
        configuration.logsLibraryErrors = false
        return configuration
    }

    @Test("a task that never waits runs on the thread that read the request")
    func synchronousTask() async throws {
        let threads = Threads()
        let responder = Self.router(threads, latch: Latch())
        try await HTTPServerTests.withServer(Self.configuration(), responder: responder) { _, port in
            let client = try RawHTTPClient(port: port)
            try client.write("GET /inline HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.response().text == "inline")
            for _ in 0..<20 {
                try client.write("GET /sync HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(try await client.response().text == "sync")
                #expect(threads["sync"] == threads["inline"])
            }
        }
    }

    @Test("a task comes back to the reading thread after an actor on a queue and a continuation resumed elsewhere")
    func waitingTask() async throws {
        let threads = Threads()
        let responder = Self.router(threads, latch: Latch())
        try await HTTPServerTests.withServer(Self.configuration(), responder: responder) { _, port in
            let client = try RawHTTPClient(port: port)
            try client.write("GET /inline HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.response().text == "inline")
            try client.write("GET /hops HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.response().text == "hops")
            let reader = try #require(threads["inline"])
            #expect(threads["start"] == reader)
            #expect(threads["actor"] != reader)
            #expect(threads["after actor"] == reader)
            #expect(threads["after continuation"] == reader)
            // A child task inherits the task's executor preference; an unstructured task does not (SE-0417).
            #expect(threads["child"] == reader)
            #expect(threads["unstructured"] != reader)
        }
    }

    @Test("many requests whose waits end at once from other threads are all answered (no wake-up lost)")
    func racingResumes() async throws {
        let threads = Threads()
        let responder = Self.router(threads, latch: Latch())
        var configuration = Self.configuration()
        configuration.threads = 2
        try await HTTPServerTests.withServer(configuration, responder: responder) { _, port in
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await offPool {
                            let client = try RawHTTPClient(port: port)
                            var answered = 0
                            for _ in 0..<50 {
                                try client.write("GET /hops HTTP/1.1\r\nHost: x\r\n\r\n")
                                if try client.readResponse().text == "hops" { answered += 1 }
                            }
                            return answered
                        }
                    }
                }
                var answered = 0
                for try await count in group { answered += count }
                #expect(answered == 400)
            }
        }
    }

    @Test("a deadline that passes while the task waits answers 503; the task ends later, off the reading thread")
    func deadlineWhileWaiting() async throws {
        let threads = Threads()
        let latch = Latch()
        let responder = Self.router(threads, latch: latch)
        try await HTTPServerTests.withServer(
            Self.configuration(requestDeadline: .milliseconds(200)), responder: responder
        ) { _, port in
            let client = try RawHTTPClient(port: port)
            try client.write("GET /inline HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.response().text == "inline")
            try client.write("GET /wait HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try await client.response()
            #expect(response.status == 503)
            #expect(latch.left.load(ordering: .relaxed) == 0)
            latch.open()
            #expect(try await eventually { latch.left.load(ordering: .relaxed) == 1 }, "the task never ended")
            // The answered request's task ran its end on the pool, not on the thread that serves other connections.
            #expect(latch.threadsAfter.withLock { $0 } != [threads["inline"] ?? 0])
            // The connection serves its next request.
            try client.write("GET /sync HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.response().text == "sync")
        }
    }

    @Test("shutdown answers 503 for tasks that wait, completes, and the tasks end when their waits do")
    func shutdownWhileWaiting() async throws {
        let latch = Latch()
        let responder = Self.router(Threads(), latch: latch)
        var configuration = Self.configuration()
        configuration.threads = 2
        let server = HTTPServer(configuration: configuration, responder: responder)
        let port = try server.start()
        var clients: [RawHTTPClient] = []
        for _ in 0..<4 {
            let client = try RawHTTPClient(port: port)
            try client.write("GET /wait HTTP/1.1\r\nHost: x\r\n\r\n")
            clients.append(client)
        }
        #expect(try await eventually { latch.arrived.load(ordering: .relaxed) == 4 }, "the requests never waited")
        await server.shutdown(deadline: .milliseconds(20))
        for client in clients {
            #expect(try await client.response().status == 503)
        }
        latch.open()
        #expect(try await eventually { latch.left.load(ordering: .relaxed) == 4 }, "a task never ended")
    }

    @Test("a task that ends another request's wait from the reading thread resumes that request on the same thread")
    func resumedFromTheReadingThread() async throws {
        let threads = Threads()
        let latch = Latch()
        let responder = Self.router(threads, latch: latch)
        try await HTTPServerTests.withServer(Self.configuration(), responder: responder) { _, port in
            let waiting = try RawHTTPClient(port: port)
            try waiting.write("GET /wait HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await eventually { latch.arrived.load(ordering: .relaxed) == 1 }, "the request never waited")
            let releasing = try RawHTTPClient(port: port)
            try releasing.write("GET /release HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await releasing.response().text == "released")
            #expect(try await waiting.response().text == "waited")
            // One polling thread: the release ran on it, inside the other request's access handler.
            #expect(latch.threadsAfter.withLock { $0 } == [threads["release"] ?? 0])
        }
    }

    @Test("a client that leaves while its task waits: the task ends when its wait does, and the server goes on")
    func clientLeavesWhileWaiting() async throws {
        let threads = Threads()
        let latch = Latch()
        let responder = Self.router(threads, latch: latch)
        try await HTTPServerTests.withServer(Self.configuration(), responder: responder) { _, port in
            let leaving = try RawHTTPClient(port: port)
            try leaving.write("GET /wait HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await eventually { latch.arrived.load(ordering: .relaxed) == 1 }, "the request never waited")
            leaving.hangUp()
            latch.open()
            #expect(try await eventually { latch.left.load(ordering: .relaxed) == 1 }, "the task never ended")
            let client = try RawHTTPClient(port: port)
            try client.write("GET /sync HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.response().text == "sync")
        }
    }
}
