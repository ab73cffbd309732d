import Dispatch
import Glibc
import Synchronization

/// Reads and discards what a client still sends after its request was refused before its body was read, for a
/// bounded time and number of bytes, then closes the socket.
///
/// RFC 9112 §9.6: a server that closes while the client is still sending makes the client's TCP stack receive a
/// reset, which can destroy the response (a 413 for a 2 MiB upload, say) before the client reads it. MHD has
/// sent the response and shut down its side for writing when it closes; the socket handed here is a second
/// descriptor of it, so the connection stays open for the drain.
///
/// Thread-safety: `remaining` is touched only on `queue`; the read source's cancel handler closes the descriptor
/// exactly once (the one owner of it), after which no handler runs.
final class LingeringClose: @unchecked Sendable {  // Invariant: see "Thread-safety" above.
    /// The bounds of each drain and of the drains at once.
    struct Limits: Sendable {
        /// The most bytes read and discarded from one connection.
        var bytes: Int
        /// The longest one connection is drained.
        var duration: Duration
        /// The most connections drained at once; beyond it a socket is closed at once.
        var connections: Int
    }

    private static let queue = DispatchQueue(label: "passkeyd.http.lingering-close")
    private static let active = Atomic<Int>(0)
    /// Bytes read per `recv`.
    private static let chunkSize = 16_384

    private let socket: Int32
    private var remaining: Int
    private let source: any DispatchSourceRead

    private init(socket: Int32, bytes: Int) {
        self.socket = socket
        self.remaining = bytes
        self.source = DispatchSource.makeReadSource(fileDescriptor: socket, queue: Self.queue)
    }

    /// Drains `socket` (which the call takes over) within `limits`, then closes it.
    static func start(socket: Int32, limits: Limits) {
        guard active.add(1, ordering: .relaxed).newValue <= limits.connections else {
            active.subtract(1, ordering: .relaxed)
            close(socket)
            return
        }
        let drain = LingeringClose(socket: socket, bytes: limits.bytes)
        drain.source.setEventHandler { drain.readAvailable() }
        drain.source.setCancelHandler {
            close(drain.socket)
            active.subtract(1, ordering: .relaxed)
        }
        drain.source.resume()
        let seconds = limits.duration.components
        let nanoseconds = Int(seconds.seconds) * 1_000_000_000 + Int(seconds.attoseconds / 1_000_000_000)
        queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { drain.source.cancel() }
    }

    /// Reads what is there without blocking; stops at the end of the stream, an error or the byte bound.
    private func readAvailable() {
        withUnsafeTemporaryAllocation(byteCount: Self.chunkSize, alignment: 1) { buffer in
            while remaining > 0 {
                let count = recv(socket, buffer.baseAddress, min(buffer.count, remaining), Int32(MSG_DONTWAIT))
                if count > 0 {
                    remaining -= count
                    continue
                }
                if count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return }
                break  // end of stream or a failed read: nothing more to wait for
            }
            source.cancel()
        }
    }
}
