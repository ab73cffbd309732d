import Dispatch
import Foundation
import HTTP
import Storage
import Synchronization
import TestSupport
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A MemoryStore slowed on purpose: each write, once begun, takes `delay` before it runs (not cut short by
/// cancellation, as a real commit is not). Counts the writes that began and those that committed.
final class SlowStore: Store {
    let base = MemoryStore()
    let delay: Duration
    let begun = Atomic<Int>(0)
    let committed = Atomic<Int>(0)

    init(delay: Duration) { self.delay = delay }

    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) throws -> T) async throws -> T {
        try await base.read(body)
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreWriter) throws -> T) async throws -> T {
        begun.add(1, ordering: .relaxed)
        let (seconds, attoseconds) = delay.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { continuation.resume() }
        }
        let result = try await base.write(body)
        committed.add(1, ordering: .relaxed)
        return result
    }

    func close() async { await base.close() }
}

/// The application behind a pause before it starts: work that runs before any write (a slow verification). The
/// pause ends early when the request's task is cancelled (a deadline or a shutdown withdrew the request); the
/// application then runs as it would have, so a write it attempts would show.
final class PausedResponder: Responder {
    let pause: Duration
    let base: any Responder
    /// How many requests reached the responder.
    let arrived = Atomic<Int>(0)

    init(pause: Duration, base: any Responder) {
        self.pause = pause
        self.base = base
    }

    func respond(to request: Request) async -> Response {
        arrived.add(1, ordering: .relaxed)
        try? await Task.sleep(for: pause)
        return await base.respond(to: request)
    }
}

@Suite("A request whose write was handed to the store is answered by its outcome, never by a 503", .serialized)
struct RequestCommitmentTests {
    /// The application on `store` behind a real HTTP listener on port 0, after `pause`.
    static func serve(_ store: SlowStore, deadline: Duration, pause: Duration = .zero) throws -> (
        HTTPServer, Int, PausedResponder
    ) {
        let context = ServerContext(
            configuration: try TestConfiguration.make(PasskeyHarness.overrides), store: store,
            logger: Logger(sink: { _ in }), writeGate: RequestCommitmentGate())
        let responder = PausedResponder(pause: pause, base: Application(context: context))
        let server = HTTPServer(
            configuration: .init(port: 0, requestDeadline: deadline, threads: 1, logsLibraryErrors: false),
            responder: responder)
        return (server, try server.start(), responder)
    }

    /// `POST /oauth/revoke` of `token` (by default a well-formed refresh token no one was issued): one write, which
    /// looks the token up and, if `app` was issued it, revokes its family. (`/passkey/challenge` writes nothing
    /// since its session is sealed.)
    static func revoke(port: Int, token: String = RevokeRequest.unknownToken) async throws -> (
        status: Int, body: String
    ) {
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/oauth/revoke"))
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = Data(RevokeRequest.body(token: token).serialized())
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.timeoutInterval = TimeInterval(TestTimeout.responseSeconds)
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        return (status, String(decoding: data, as: UTF8.self))
    }

    @Test("past the deadline, a write that began is waited for: the endpoint's real answer, and the write is there")
    func deadlineWaitsForCommittedWrite() async throws {
        // The write must begin before the deadline: the responder runs on the cooperative pool, which the suites
        // alongside can hold up for a second or two, while the deadline's sweep runs on a thread of its own and
        // fires on time. So 3 s of deadline, and the write then takes 4.5 s.
        let store = SlowStore(delay: .milliseconds(4_500))
        let (server, port, _) = try Self.serve(store, deadline: .seconds(3))
        let started = ContinuousClock.now
        let response = try await Self.revoke(port: port)
        #expect(response.status == 200, "\(response.body)")
        #expect(ContinuousClock.now - started >= .milliseconds(4_400))
        #expect(store.committed.load(ordering: .relaxed) == 1)
        await server.shutdown(deadline: .seconds(1))
    }

    @Test("past the deadline, a write not yet begun is withdrawn: 503, and nothing is written")
    func deadlineWithdrawsUnbegunWrite() async throws {
        let store = SlowStore(delay: .zero)
        // The pause outlasts the deadline by far; the deadline's cancellation ends it.
        let (server, port, _) = try Self.serve(store, deadline: .seconds(1), pause: .seconds(60))
        let response = try await Self.revoke(port: port)
        #expect(response.status == 503)
        #expect(response.body.contains("temporarily_unavailable"))
        // The responder's task is cancelled; were it to go on, its write would reach the store by now.
        try await Task.sleep(for: .milliseconds(1_000))
        #expect(store.begun.load(ordering: .relaxed) == 0)
        await server.shutdown(deadline: .seconds(1))
    }

    @Test("shutdown with no grace waits for a write that began and answers its outcome")
    func shutdownWaitsForCommittedWrite() async throws {
        let store = SlowStore(delay: .milliseconds(1_000))
        let (server, port, _) = try Self.serve(store, deadline: .seconds(30))
        async let response = Self.revoke(port: port)
        #expect(try await eventually { store.begun.load(ordering: .relaxed) == 1 }, "the write never began")
        await server.shutdown(deadline: .zero)
        let answer = try await response
        #expect(answer.status == 200, "\(answer.body)")
        #expect(store.committed.load(ordering: .relaxed) == 1)
    }

    @Test("shutdown with no grace withdraws a write not yet begun: 503, and nothing is written")
    func shutdownWithdrawsUnbegunWrite() async throws {
        let store = SlowStore(delay: .zero)
        // The pause outlasts the test; the shutdown's cancellation ends it.
        let (server, port, responder) = try Self.serve(store, deadline: .seconds(30), pause: .seconds(60))
        async let response = Self.revoke(port: port)
        #expect(try await eventually { responder.arrived.load(ordering: .relaxed) == 1 }, "never reached")
        await server.shutdown(deadline: .zero)
        let answer = try await response
        #expect(answer.status == 503)
        try await Task.sleep(for: .milliseconds(1_000))
        #expect(store.begun.load(ordering: .relaxed) == 0)
    }
}
