internal import CMicroHTTPD
import Glibc
import Synchronization

/// The daemon's open connections (MHD_OPTION_NOTIFY_CONNECTION): each one's socket, the instant by which the
/// request it is receiving must have arrived whole, and whether its close must linger.
///
/// Why a deadline of our own: MHD_OPTION_CONNECTION_TIMEOUT is an idle timeout that every byte restarts, so a
/// client trickling one byte at a time holds a connection for ever (slowloris). A connection gets
/// `readTimeout` to deliver a whole request, headers and body, counted from its opening or from the end of the
/// previous response on it (an idle keep-alive connection included); `sweep` shuts down the socket of one that
/// overruns, and MHD then closes it as a connection the client gave up.
///
/// Thread-safety: entries are added and removed on the connection's MHD thread (MHD notifies STARTED and CLOSED
/// there, and closes the socket only after CLOSED returned); `sweep` runs on any thread and touches a socket only
/// under the lock, while its entry exists, so it can never shut down a descriptor that was closed and reused.
final class ConnectionRegistry: Sendable {
    private struct Entry {
        let socket: Int32
        /// When the request being received must be complete; `nil` while none is (responding, suspended, cut).
        var readDeadline: ContinuousClock.Instant?
        /// Whether a refusal was queued before the body was read: the close then drains (see `LingeringClose`).
        var lingers = false
    }

    /// How long a connection has to deliver a whole request.
    let readTimeout: Duration
    private let lingering: LingeringClose.Limits
    private let entries = Mutex([UInt: Entry]())

    init(readTimeout: Duration, lingering: LingeringClose.Limits) {
        self.readTimeout = readTimeout
        self.lingering = lingering
    }

    /// MHD_CONNECTION_NOTIFY_STARTED: the connection waits for its first request.
    func opened(_ connection: OpaquePointer) {
        let socket = CMicroHTTPD_connection_socket(connection)
        guard socket >= 0 else { return }
        let entry = Entry(socket: socket, readDeadline: .now + readTimeout)
        entries.withLock { $0[Self.key(connection)] = entry }
    }

    /// MHD_CONNECTION_NOTIFY_CLOSED (the socket is still open; MHD closes it after this returns).
    func closed(_ connection: OpaquePointer) {
        guard let entry = entries.withLock({ $0.removeValue(forKey: Self.key(connection)) }), entry.lingers else {
            return
        }
        // A second descriptor keeps the socket open after MHD closes its own, so the drain can go on.
        let copy = dup(entry.socket)
        if copy >= 0 { LingeringClose.start(socket: copy, limits: lingering) }
    }

    /// A request completed (MHD_OPTION_NOTIFY_COMPLETED): the next one on this connection gets a full timeout.
    func awaitRequest(on connection: OpaquePointer) {
        let deadline = ContinuousClock.now + readTimeout
        entries.withLock { $0[Self.key(connection)]?.readDeadline = deadline }
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

    /// Shuts down every connection whose request is past its read deadline; MHD sees the end of the stream on its
    /// next read and closes the connection (no response: MHD cannot queue one before the headers are complete or
    /// in the middle of a body). Returns how many were cut.
    @discardableResult
    func sweep(now: ContinuousClock.Instant) -> Int {
        entries.withLock { entries in
            var cut = 0
            for (key, entry) in entries {
                guard let deadline = entry.readDeadline, deadline <= now else { continue }
                entries[key]?.readDeadline = nil
                // Under the lock: MHD has not seen CLOSED for this connection, so the descriptor is still its own.
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
