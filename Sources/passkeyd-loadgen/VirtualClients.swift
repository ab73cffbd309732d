import Dispatch
import Foundation
import Synchronization
import SoftwareClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Runs `count` virtual clients, each on its own thread with its own transport (blocking I/O never touches the
/// cooperative pool), and waits for all of them.
struct VirtualClients {
    let settings: LoadgenSettings
    /// One URLSession shared by all clients in `urlsession` mode (its connection pool is per session).
    private let session: URLSession?

    init(settings: LoadgenSettings) {
        self.settings = settings
        if settings.transport == .urlsession {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpMaximumConnectionsPerHost = settings.concurrency
            session = URLSession(configuration: configuration)
        } else {
            session = nil
        }
    }

    /// A transport of the configured kind, for one thread.
    func makeTransport() -> any HTTPTransport {
        if let session, let url = URL(string: settings.baseURL) {
            return URLSessionTransport(base: url, session: session)
        }
        return SocketConnection(host: settings.host, port: settings.port)
    }

    /// The client of a thread: the transport plus a software authenticator whose credentials never count (a
    /// synced passkey), so clients that share a credential never trip the counter rule.
    func makeClient() -> PasskeyClient {
        PasskeyClient(
            transport: makeTransport(), parameters: settings.clientParameters,
            authenticator: VirtualAuthenticator(flags: .passkey, counterStep: 0))
    }

    /// Runs `body(index)` on `count` threads and returns their results in index order.
    func run<Result: Sendable>(count: Int, _ body: @escaping @Sendable (Int) -> Result) -> [Result] {
        let results = ResultSlots<Result>(count: count)
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            let thread = Thread {
                results.store(body(index), at: index)
                group.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        group.wait()
        return results.all()
    }
}

/// Where the threads leave their results.
final class ResultSlots<Result: Sendable>: Sendable {
    private let slots: Mutex<[Result?]>

    init(count: Int) { slots = Mutex(Array(repeating: nil, count: count)) }

    func store(_ result: Result, at index: Int) { slots.withLock { $0[index] = result } }

    func all() -> [Result] { slots.withLock { $0.compactMap { $0 } } }
}
