internal import CMicroHTTPD
import Foundation
import Synchronization
import Addresses

/// Owner of one running `MHD_Daemon`: starts it, stops accepting, stops it — each once.
///
/// Thread-safety: `handle` is only passed to MHD_quiesce_daemon and MHD_stop_daemon (both thread-safe), each at
/// most once under `lifecycle`'s lock; MHD_stop_daemon runs after every suspended connection was resumed.
final class MicroHTTPDDaemon: @unchecked Sendable {  // Invariant: see "Thread-safety" above.
    private struct Lifecycle {
        var isQuiesced = false
        var isStopped = false
        /// The listening socket MHD_quiesce_daemon handed back: shut down at once, closed after MHD_stop_daemon.
        var quiescedSocket: Int32 = -1
    }

    private let handle: OpaquePointer
    private let lifecycle = Mutex(Lifecycle())
    /// The callbacks' state; `handle` points at it unretained, and this reference keeps it alive.
    let dispatcher: RequestDispatcher
    /// The bound TCP port.
    let port: Int
    /// Cuts connections past their request read or response write deadline (`ConnectionRegistry.sweep`) until the
    /// daemon stops.
    private let reaper: Task<Void, Never>

    /// Starts libmicrohttpd with an internal poll(2) polling thread (or a pool of them) and suspend/resume.
    init(configuration: HTTPServer.Configuration, dispatcher: RequestDispatcher) throws(HTTPError) {
        guard (0...65_535).contains(configuration.port) else {
            throw HTTPError(.invalidConfiguration, "port \(configuration.port) is out of range")
        }
        guard configuration.connectionLimit > 0, configuration.threads > 0 else {
            throw HTTPError(.invalidConfiguration, "connectionLimit and threads must be positive")
        }
        guard configuration.perAddressConnectionLimit >= 0, configuration.perNetworkConnectionLimit >= 0,
            configuration.requestReadTimeout > .zero, configuration.responseWriteTimeout > .zero
        else {
            throw HTTPError(
                .invalidConfiguration,
                "perAddressConnectionLimit and perNetworkConnectionLimit must not be negative, requestReadTimeout and "
                    + "responseWriteTimeout must be positive")
        }
        let address = try SocketAddress(host: configuration.host, port: UInt16(configuration.port))
        // poll(2), not epoll: MHD_quiesce_daemon on an epoll daemon with internal threads races its own polling
        // threads for the listening socket's EPOLL_CTL_DEL, and the loser aborts the process ("Failed to remove
        // listen FD from epoll set", MHD 0.9.75; seen in the test suite). With poll, quiescing only stops polling
        // the socket. Each thread polls its own share of at most `connectionLimit` connections.
        var flags =
            MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_POLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        if configuration.logsLibraryErrors { flags |= MHD_USE_ERROR_LOG.rawValue }
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        var certificate: String?
        var privateKey: String?
        if let tls = configuration.tls {
            flags |= MHD_USE_TLS.rawValue
            certificate = try Self.readPEM(tls.certificatePath)
            privateKey = try Self.readPEM(tls.privateKeyPath)
        }
        // MHD_OPTION_CONNECTION_TIMEOUT counts whole seconds; round up, at least 1 (0 would mean "never").
        let timeout = configuration.connectionTimeout.components
        let timeoutSeconds = max(1, timeout.seconds + (timeout.attoseconds > 0 ? 1 : 0))
        let context = Unmanaged.passUnretained(dispatcher).toOpaque()

        let started: OpaquePointer? = address.withSockaddr { sockaddr in
            Self.withOptionalCString(certificate) { certificatePEM in
                Self.withOptionalCString(privateKey) { keyPEM in
                    CMicroHTTPD_start(
                        flags, UInt16(configuration.port), sockaddr,
                        { cls, address, length in
                            // The accept policy: a connection from a network at its limit is refused unserved.
                            guard let cls, let address else { return .YES }
                            let networks = Unmanaged<RequestDispatcher>.fromOpaque(cls).takeUnretainedValue()
                                .connections.networks
                            guard networks.limit > 0,
                                let network = ClientAddressPrefix(socketAddress: address, length: Int(length))
                            else {
                                return .YES  // no limit, or not an IP peer: no network to count it against
                            }
                            return networks.hasRoom(for: network) ? .YES : .NO
                        }, context,
                        { cls, connection, url, method, version, uploadData, uploadDataSize, slot in
                            guard let cls, let connection, let url, let method, let version, let uploadDataSize,
                                let slot
                            else {
                                return .NO
                            }
                            let dispatcher = Unmanaged<RequestDispatcher>.fromOpaque(cls).takeUnretainedValue()
                            return dispatcher.access(
                                connection: connection, url: url, method: method, version: version,
                                uploadData: uploadData, uploadDataSize: uploadDataSize, slot: slot)
                        }, context,
                        { cls, connection, slot, _ in
                            guard let cls else { return }
                            let dispatcher = Unmanaged<RequestDispatcher>.fromOpaque(cls).takeUnretainedValue()
                            if let connection { dispatcher.connections.awaitRequest(on: connection) }
                            dispatcher.completed(slot: slot)
                        }, context,
                        { cls, connection, _, code in
                            guard let cls, let connection else { return }
                            let connections = Unmanaged<RequestDispatcher>.fromOpaque(cls).takeUnretainedValue()
                                .connections
                            if code == .CONNECTION_NOTIFY_STARTED {
                                connections.opened(connection)
                            } else {
                                connections.closed(connection)
                            }
                        }, context,
                        UInt32(clamping: configuration.connectionLimit),
                        UInt32(clamping: configuration.perAddressConnectionLimit),
                        UInt32(clamping: timeoutSeconds),
                        UInt32(clamping: configuration.threads),
                        max(0, configuration.connectionMemoryLimit),
                        certificatePEM, keyPEM)
                }
            }
        }
        guard let started else {
            throw HTTPError(.startFailed, "MHD_start_daemon failed for \(configuration.host):\(configuration.port)")
        }
        handle = started
        port = Int(CMicroHTTPD_bound_port(started))
        self.dispatcher = dispatcher
        let connections = dispatcher.connections
        reaper = PeriodicSweep.start(bounding: min(connections.readTimeout, connections.writeTimeout)) {
            connections.sweep(now: .now)
        }
    }

    /// Stops accepting connections: MHD_quiesce_daemon hands the listening socket back, and shutting it down
    /// makes new connection attempts fail at once instead of waiting in the backlog. It is closed only after
    /// MHD_stop_daemon: a polling thread that has not yet seen the quiesce must never meet its descriptor number
    /// reused by another file.
    func quiesce() {
        lifecycle.withLock { state in
            guard !state.isQuiesced, !state.isStopped else { return }
            state.isQuiesced = true
            let socket = MHD_quiesce_daemon(handle)
            guard socket >= 0 else { return }
            shutdown(socket, Int32(SHUT_RDWR))
            state.quiescedSocket = socket
        }
    }

    /// Answers every suspended request, then stops the daemon (joins its threads, closes every connection).
    /// Blocks: call it off the cooperative pool.
    func stop() {
        lifecycle.withLock { state in
            guard !state.isStopped else { return }
            state.isStopped = true
            dispatcher.closeAndResumeAll()
            reaper.cancel()
            MHD_stop_daemon(handle)
            if state.quiescedSocket >= 0 { close(state.quiescedSocket) }
        }
    }

    deinit {
        stop()
    }

    // MARK: helpers

    private static func readPEM(_ path: String) throws(HTTPError) -> String {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8),
            !text.contains("\0")
        else {
            throw HTTPError(.invalidConfiguration, "cannot read PEM file \(path)")
        }
        return text
    }

    private static func withOptionalCString<Result>(
        _ string: String?,
        _ body: (UnsafePointer<CChar>?) -> Result
    ) -> Result {
        guard let string else { return body(nil) }
        return string.withCString { body($0) }
    }
}
