internal import CMicroHTTPD
import Glibc
import Synchronization
import Addresses

/// The daemon's open connections (MHD_OPTION_NOTIFY_CONNECTION): each one's socket and network, the instant by which
/// the request it is receiving must have arrived whole or the response it is sending must have been written, and
/// whether its close must linger.
///
/// Why deadlines of our own: MHD_OPTION_CONNECTION_TIMEOUT is an idle timeout that every byte restarts, so a
/// client trickling one byte at a time holds a connection for ever (slowloris), and so does one reading its response
/// a few bytes at a time. A connection gets `readTimeout` to deliver a whole request, headers and body, counted from
/// its opening or from the end of the previous response on it (an idle keep-alive connection included), and
/// `writeTimeout` to take a whole response, counted from when it is queued; `sweep` shuts down the socket of one that
/// overruns, and MHD then closes it as a connection the client gave up (a late reader's is reset: see `sweep`).
///
/// Thread-safety: entries are added and removed on the connection's MHD thread (MHD notifies STARTED and CLOSED
/// there, and closes the socket only after CLOSED returned); `sweep` runs on any thread and touches a socket only
/// under the lock, while its entry exists, so it can never shut down a descriptor that was closed and reused.
final class ConnectionRegistry: Sendable {
    private struct Entry {
        let socket: Int32
        /// When the request being received must be complete; `nil` while none is (responding, suspended, cut).
        var readDeadline: ContinuousClock.Instant?
        /// When the response being sent must be written; `nil` while none is.
        var writeDeadline: ContinuousClock.Instant?
        /// The network the connection counts against (`NetworkConnectionLimit`); `nil`: not counted.
        var network: ClientAddressPrefix?
        /// Whether a refusal was queued before the body was read: the close then drains (see `LingeringClose`).
        var lingers = false
    }

    /// How long a connection has to deliver a whole request.
    let readTimeout: Duration
    /// How long a connection has to take a whole response.
    let writeTimeout: Duration
    /// The connections per client network.
    let networks: NetworkConnectionLimit
    private let lingering: LingeringClose.Limits
    private let entries = Mutex([UInt: Entry]())

    init(
        readTimeout: Duration, writeTimeout: Duration, networks: NetworkConnectionLimit,
        lingering: LingeringClose.Limits
    ) {
        self.readTimeout = readTimeout
        self.writeTimeout = writeTimeout
        self.networks = networks
        self.lingering = lingering
    }

    /// MHD_CONNECTION_NOTIFY_STARTED: the connection waits for its first request, unless its network is at its
    /// limit (several polling threads accepted at once past the accept policy): then it is cut at once.
    func opened(_ connection: OpaquePointer) {
        let socket = CMicroHTTPD_connection_socket(connection)
        guard socket >= 0 else { return }
        var entry = Entry(socket: socket, readDeadline: .now + readTimeout)
        if networks.limit > 0, let address = CMicroHTTPD_client_sockaddr(connection),
            let network = ClientAddressPrefix(peerAddress: address)
        {
            if networks.open(network) {
                entry.network = network
            } else {
                entry.readDeadline = nil
                Glibc.shutdown(socket, Int32(SHUT_RDWR))  // MHD sees the end of the stream and closes it
            }
        }
        entries.withLock { $0[Self.key(connection)] = entry }
    }

    /// MHD_CONNECTION_NOTIFY_CLOSED (the socket is still open; MHD closes it after this returns).
    func closed(_ connection: OpaquePointer) {
        guard let entry = entries.withLock({ $0.removeValue(forKey: Self.key(connection)) }) else { return }
        if let network = entry.network { networks.close(network) }
        guard entry.lingers else { return }
        // A second descriptor keeps the socket open after MHD closes its own, so the drain can go on.
        let copy = dup(entry.socket)
        if copy >= 0 { LingeringClose.start(socket: copy, limits: lingering) }
    }

    /// A request completed (MHD_OPTION_NOTIFY_COMPLETED): its response is written, and the next request on this
    /// connection gets a full timeout.
    func awaitRequest(on connection: OpaquePointer) {
        let deadline = ContinuousClock.now + readTimeout
        entries.withLock { entries in
            entries[Self.key(connection)]?.readDeadline = deadline
            entries[Self.key(connection)]?.writeDeadline = nil
        }
    }

    /// A response was queued on `connection`: it must be written within `writeTimeout`.
    func responseQueued(on connection: OpaquePointer) {
        let deadline = ContinuousClock.now + writeTimeout
        entries.withLock { $0[Self.key(connection)]?.writeDeadline = deadline }
    }

    /// The request on `connection` arrived whole: its responder's time is `requestDeadline`'s business.
    func requestReceived(on connection: OpaquePointer) {
        entries.withLock { $0[Self.key(connection)]?.readDeadline = nil }
    }

    /// The instant by which the request on `connection` must be complete.
    func readDeadline(of connection: OpaquePointer) -> ContinuousClock.Instant? {
        entries.withLock { $0[Self.key(connection)]?.readDeadline }
    }

    /// A refusal was queued before the body was read: drain the connection when MHD closes it.
    func lingerOnClose(_ connection: OpaquePointer) {
        entries.withLock { $0[Self.key(connection)]?.lingers = true }
    }

    /// Shuts down every connection whose request is past its read deadline or whose response is past its write
    /// deadline; MHD sees the end of the stream on its next read, or a failed write, and closes the connection (no
    /// response: MHD cannot queue one before the headers are complete, in the middle of a body or of a response).
    /// A response past its deadline is reset (SO_LINGER 0): what the kernel still holds of it is dropped at the close
    /// rather than trickled out to the slow reader. Returns how many were cut.
    @discardableResult
    func sweep(now: ContinuousClock.Instant) -> Int {
        entries.withLock { entries in
            var cut = 0
            for (key, entry) in entries {
                let isReadLate = entry.readDeadline.map { $0 <= now } ?? false
                let isWriteLate = entry.writeDeadline.map { $0 <= now } ?? false
                guard isReadLate || isWriteLate else { continue }
                entries[key]?.readDeadline = nil
                entries[key]?.writeDeadline = nil
                // Under the lock: MHD has not seen CLOSED for this connection, so the descriptor is still its own.
                if isWriteLate {
                    entries[key]?.lingers = false  // nothing more is read from a client that does not read
                    var reset = linger(l_onoff: 1, l_linger: 0)
                    _ = setsockopt(
                        entry.socket, SOL_SOCKET, SO_LINGER, &reset, socklen_t(MemoryLayout<linger>.size))
                }
                Glibc.shutdown(entry.socket, Int32(SHUT_RDWR))
                cut += 1
            }
            return cut
        }
    }

    private static func key(_ connection: OpaquePointer) -> UInt {
        UInt(bitPattern: Int(bitPattern: connection))
    }
}
