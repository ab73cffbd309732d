import Foundation
import Addresses

extension HTTPServer {
    /// Listening address, limits, timeouts, threads and TLS. `init()` gives sensible defaults.
    public struct Configuration: Sendable {
        /// The IPv4 or IPv6 literal address to bind (no host names: nothing is resolved).
        public var host: String
        /// The TCP port; 0 picks an ephemeral port (see `HTTPServer.start()`'s result).
        public var port: Int
        /// The largest request body accepted; larger bodies get 413.
        public var maxBodyBytes: Int
        /// How much of an oversized upload is read and discarded, within `requestReadTimeout`, so that the client
        /// sees the 413 (RFC 9112 §9.6) before the connection is dropped: after a 413 answered from the declared
        /// length, and of a chunked body that grows over the limit.
        public var maxDiscardBytes: Int
        /// Idle time after which libmicrohttpd closes a connection (MHD_OPTION_CONNECTION_TIMEOUT; whole seconds,
        /// at least 1). Every byte restarts it, so it bounds a silent client, not a slow one: see
        /// `requestReadTimeout`.
        public var connectionTimeout: Duration
        /// The longest a connection may take to deliver a whole request, headers and body, counted from its opening
        /// or from the end of the previous response on it; then it is closed (slowloris: a client trickling bytes
        /// restarts `connectionTimeout` with each one).
        public var requestReadTimeout: Duration
        /// The longest a response may take to be written to the client, counted from when it is queued; then the
        /// connection is reset (a slow reader taking a few bytes now and then restarts `connectionTimeout` with each).
        public var responseWriteTimeout: Duration
        /// The most simultaneous connections (MHD_OPTION_CONNECTION_LIMIT); more are refused. Each needs a file
        /// descriptor, and one more while its close drains (`LingeringClose`): `start()` raises RLIMIT_NOFILE's soft
        /// limit to what they need, or refuses to start.
        public var connectionLimit: Int
        /// The most simultaneous connections from one client address (MHD_OPTION_PER_IP_CONNECTION_LIMIT); 0 for no
        /// limit. Behind a reverse proxy every connection comes from the proxy's address.
        public var perAddressConnectionLimit: Int
        /// The most simultaneous connections from one client network (`ClientAddressPrefix`: an IPv4 /24, an IPv6
        /// /64), refused when accepted; 0 for no limit. A client holding several addresses of its network gets no
        /// more than this together.
        public var perNetworkConnectionLimit: Int
        /// The longest a responder may take; after it the client gets 503 (suspended connections never time out),
        /// unless the responder has committed a write (`RequestCommitment`): then its own answer is awaited.
        public var requestDeadline: Duration
        /// Number of polling threads (MHD_OPTION_THREAD_POOL_SIZE, each polling its own connections); 1 means one
        /// internal thread. Defaults to the number of active cores.
        public var threads: Int
        /// Per-connection memory for headers and buffers (MHD_OPTION_CONNECTION_MEMORY_LIMIT); 0 keeps MHD's 32 KiB.
        public var connectionMemoryLimit: Int
        /// Serve HTTPS with these files; `nil` serves plain HTTP.
        public var tls: TLSConfiguration?
        /// Let libmicrohttpd print its own errors to stderr (MHD_USE_ERROR_LOG).
        public var logsLibraryErrors: Bool

        /// The defaults: 127.0.0.1:8080, 64 KiB bodies, 30 s timeouts, a request read in 10 s, a response written in
        /// 30 s, 4096 connections (256 from one network, 64 from one address), one thread per core.
        public init(
            host: String = "127.0.0.1",
            port: Int = 8080,
            maxBodyBytes: Int = 65_536,
            maxDiscardBytes: Int = 4 << 20,
            connectionTimeout: Duration = .seconds(30),
            requestReadTimeout: Duration = .seconds(10),
            responseWriteTimeout: Duration = .seconds(30),
            connectionLimit: Int = 4_096,
            perAddressConnectionLimit: Int = 64,
            perNetworkConnectionLimit: Int = 256,
            requestDeadline: Duration = .seconds(30),
            threads: Int = ProcessInfo.processInfo.activeProcessorCount,
            connectionMemoryLimit: Int = 0,
            tls: TLSConfiguration? = nil,
            logsLibraryErrors: Bool = true
        ) {
            self.host = host
            self.port = port
            self.maxBodyBytes = maxBodyBytes
            self.maxDiscardBytes = maxDiscardBytes
            self.connectionTimeout = connectionTimeout
            self.requestReadTimeout = requestReadTimeout
            self.responseWriteTimeout = responseWriteTimeout
            self.connectionLimit = connectionLimit
            self.perAddressConnectionLimit = perAddressConnectionLimit
            self.perNetworkConnectionLimit = perNetworkConnectionLimit
            self.requestDeadline = requestDeadline
            self.threads = threads
            self.connectionMemoryLimit = connectionMemoryLimit
            self.tls = tls
            self.logsLibraryErrors = logsLibraryErrors
        }
    }

    /// PEM files for HTTPS (MHD_USE_TLS with MHD_OPTION_HTTPS_MEM_CERT / MHD_OPTION_HTTPS_MEM_KEY).
    public struct TLSConfiguration: Sendable {
        /// Path of the PEM certificate chain, leaf first.
        public var certificatePath: String
        /// Path of the PEM private key (unencrypted).
        public var privateKeyPath: String

        /// Creates a TLS configuration from two file paths.
        public init(certificatePath: String, privateKeyPath: String) {
            self.certificatePath = certificatePath
            self.privateKeyPath = privateKeyPath
        }
    }
}
