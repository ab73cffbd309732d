#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A minimal HTTP/1.1 keep-alive client over one blocking POSIX socket, for this benchmark tool only (the server
/// never uses it): requests carry Content-Length, responses must too (RFC 9112 §6.3 rule 6); no chunked bodies, no
/// pipelining. A connection the server closed between requests is reopened once before giving up.
final class SocketConnection: HTTPTransport {
    private let host: String
    private let port: UInt16
    private var descriptor: Int32 = -1
    /// Bytes read past the end of the previous response (none without pipelining, kept for safety).
    private var pending: [UInt8] = []
    private var buffer = [UInt8](repeating: 0, count: 65_536)
    /// How many times the connection was (re)opened.
    private(set) var connects = 0

    init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    deinit { close() }

    func post(_ path: String, body: [UInt8]) throws(LoadgenError) -> (status: Int, body: [UInt8]) {
        let head =
            "POST \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nContent-Type: application/json\r\n"
            + "Accept: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
        return try exchange(Array(head.utf8) + body)
    }

    func get(_ path: String) throws(LoadgenError) -> (status: Int, body: [UInt8]) {
        try exchange(Array("GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nAccept: application/json\r\n\r\n".utf8))
    }

    /// Sends one request and reads its response; retries once on a fresh connection when a reused one turns out
    /// to be closed before any response byte arrived (the server's keep-alive timeout).
    private func exchange(_ request: [UInt8]) throws(LoadgenError) -> (status: Int, body: [UInt8]) {
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

    private func open() throws(LoadgenError) {
        var hints = addrinfo()
        hints.ai_family = AF_INET
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &result) == 0, let info = result else {
            throw LoadgenError(.transport, "cannot resolve \(host)")
        }
        defer { freeaddrinfo(info) }
        let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
        guard fd >= 0 else { throw LoadgenError(.transport, "socket: errno \(errno)") }
        var one: Int32 = 1
        // Requests are written in one piece; Nagle would only delay them behind the previous ACK.
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        guard connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
            let code = errno
            _ = Glibc.close(fd)
            throw LoadgenError(.transport, "connect to \(host):\(port): errno \(code)")
        }
        descriptor = fd
        pending.removeAll(keepingCapacity: true)
        connects += 1
    }

    private func close() {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
        descriptor = -1
    }

    private func send(_ bytes: [UInt8]) throws(LoadgenError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return Glibc.send(descriptor, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                close()
                throw LoadgenError(.transport, "closed before the request was sent (errno \(errno))")
            }
            offset += written
        }
    }

    /// Reads more bytes into `pending`; false at end of stream.
    private func fill() throws(LoadgenError) -> Bool {
        while true {
            let count = buffer.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return -1 }
                return recv(descriptor, base, raw.count, 0)
            }
            if count < 0 && errno == EINTR { continue }
            if count < 0 {
                let code = errno
                close()
                throw LoadgenError(.transport, "recv: errno \(code)")
            }
            if count == 0 { return false }
            pending.append(contentsOf: buffer[0..<count])
            return true
        }
    }

    private func receive() throws(LoadgenError) -> (status: Int, body: [UInt8]) {
        // RFC 9112 §2.1: status-line CRLF *(field-line CRLF) CRLF [message-body]
        var headEnd: Int?
        var searchFrom = 0
        while headEnd == nil {
            headEnd = Self.find([13, 10, 13, 10], in: pending, from: searchFrom)
            if headEnd != nil { break }
            searchFrom = max(0, pending.count - 3)
            guard try fill() else {
                let started = !pending.isEmpty
                close()
                throw LoadgenError(
                    .transport, started ? "connection closed inside a response" : "closed before a response")
            }
        }
        guard let end = headEnd, let head = String(validating: pending[0..<end], as: UTF8.self) else {
            throw LoadgenError(.malformedResponse, "response head is not UTF-8")
        }
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusParts = lines.first?.split(separator: " ", maxSplits: 2) ?? []
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
            throw LoadgenError(.malformedResponse, "bad status line \(lines.first ?? "")")
        }
        var contentLength = 0
        var closes = false
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: " \t")
            switch name {
            case "content-length":
                guard let length = Int(value), length >= 0 else {
                    throw LoadgenError(.malformedResponse, "bad Content-Length \(value)")
                }
                contentLength = length
            case "transfer-encoding":
                throw LoadgenError(.malformedResponse, "Transfer-Encoding \(value) is not supported by this client")
            case "connection":
                closes = value.lowercased().contains("close")
            default: break
            }
        }
        let bodyStart = end + 4
        while pending.count < bodyStart + contentLength {
            guard try fill() else {
                close()
                throw LoadgenError(.transport, "connection closed inside a response body")
            }
        }
        let body = Array(pending[bodyStart..<(bodyStart + contentLength)])
        pending.removeFirst(bodyStart + contentLength)
        if closes { close() }
        return (status, body)
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        var index = start
        while index <= haystack.count - needle.count {
            if haystack[index] == needle[0] && haystack[index + 1] == needle[1] && haystack[index + 2] == needle[2]
                && haystack[index + 3] == needle[3]
            {
                return index
            }
            index += 1
        }
        return nil
    }
}

extension Substring {
    /// The substring without leading and trailing characters of `set`.
    fileprivate func trimmingCharacters(in set: String) -> String {
        var slice = self[...]
        while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
        return String(slice)
    }
}
