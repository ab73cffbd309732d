import Glibc

/// A minimal HTTP/1.1 keep-alive client over one blocking POSIX socket, for the software clients only (`passkeyd try`,
/// the load generator; the server never uses it): requests carry Content-Length, responses must too (RFC 9112 §6.3 rule 6); no chunked bodies, no
/// pipelining. A connection the server closed between requests is reopened once before giving up.
package final class SocketConnection: HTTPTransport {
    private let host: String
    private let port: UInt16
    private var descriptor: Int32 = -1
    /// Bytes read past the end of the previous response (none without pipelining, kept for safety).
    private var pending: [UInt8] = []
    private var buffer = [UInt8](repeating: 0, count: 65_536)
    /// How many times the connection was (re)opened.
    package private(set) var connects = 0

    package init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    deinit { close() }

    package func post(_ path: String, body: [UInt8]) throws(SoftwareClientError) -> (status: Int, body: [UInt8]) {
        try exchange(HTTP1Framing.post(path, host: host, port: port, body: body))
    }

    package func get(_ path: String) throws(SoftwareClientError) -> (status: Int, body: [UInt8]) {
        try exchange(HTTP1Framing.get(path, host: host, port: port))
    }

    /// Sends one request and reads its response; retries once on a fresh connection when a reused one turns out
    /// to be closed before any response byte arrived (the server's keep-alive timeout).
    private func exchange(_ request: [UInt8]) throws(SoftwareClientError) -> (status: Int, body: [UInt8]) {
        let reused = descriptor >= 0
        if !reused { try open() }
        do {
            try send(request)
            return try receive()
        } catch let error where reused && error.reason.hasPrefix("closed before") {
            close()
            try open()
            try send(request)
            return try receive()
        }
    }

    private func open() throws(SoftwareClientError) {
        descriptor = try Self.connectedSocket(host: host, port: port)
        pending.removeAll(keepingCapacity: true)
        connects += 1
    }

    /// A blocking TCP socket connected to `host:port`, with Nagle off.
    package static func connectedSocket(host: String, port: UInt16) throws(SoftwareClientError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_INET
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &result) == 0, let info = result else {
            throw SoftwareClientError(.transport, "cannot resolve \(host)")
        }
        defer { freeaddrinfo(info) }
        let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
        guard fd >= 0 else { throw SoftwareClientError(.transport, "socket: errno \(errno)") }
        var one: Int32 = 1
        // Requests are written in one piece; Nagle would only delay them behind the previous ACK.
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        guard connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
            let code = errno
            closeDescriptor(fd)
            throw SoftwareClientError(.transport, "connect to \(host):\(port): errno \(code)")
        }
        return fd
    }

    /// Writes all of `bytes` to the blocking socket `descriptor`; false if the connection is gone.
    package static func sendAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return sendBytes(descriptor, base + offset, raw.count - offset)
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    private func close() {
        if descriptor >= 0 { closeDescriptor(descriptor) }
        descriptor = -1
    }

    private func send(_ bytes: [UInt8]) throws(SoftwareClientError) {
        guard Self.sendAll(bytes, to: descriptor) else {
            let code = errno
            close()
            throw SoftwareClientError(.transport, "closed before the request was sent (errno \(code))")
        }
    }

    /// Reads more bytes into `pending`; false at end of stream.
    private func fill() throws(SoftwareClientError) -> Bool {
        while true {
            let count = buffer.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return -1 }
                return recv(descriptor, base, raw.count, 0)
            }
            if count < 0 && errno == EINTR { continue }
            if count < 0 {
                let code = errno
                close()
                throw SoftwareClientError(.transport, "recv: errno \(code)")
            }
            if count == 0 { return false }
            pending.append(contentsOf: buffer[0..<count])
            return true
        }
    }

    private func receive() throws(SoftwareClientError) -> (status: Int, body: [UInt8]) {
        while true {
            if let response = try HTTP1Framing.response(in: pending) {
                pending.removeFirst(response.length)
                if response.closes { close() }
                return (response.status, response.body)
            }
            guard try fill() else {
                let started = !pending.isEmpty
                close()
                throw SoftwareClientError(
                    .transport, started ? "connection closed inside a response" : "closed before a response")
            }
        }
    }
}

/// `close(2)`, reachable from inside `SocketConnection`, whose own `close()` shadows the C function (and from the
/// load generator's event loop).
package func closeDescriptor(_ descriptor: Int32) { _ = close(descriptor) }

/// `send(2)` without SIGPIPE when the server has closed the connection.
private func sendBytes(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    send(descriptor, bytes, count, Int32(MSG_NOSIGNAL))
}
