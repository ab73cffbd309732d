import Foundation
import Glibc
import TestSupport

/// A minimal blocking HTTP/1.1 client over a raw TCP socket, so end-to-end tests control exactly what
/// is written and when (a whole oversized body before reading, a half-sent request, …).
final class RawHTTPClient: @unchecked Sendable {  // Invariant: used by one test task at a time.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A parsed response.
    struct Response: Sendable {
        let status: Int
        let headers: [(String, String)]
        let body: [UInt8]

        func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }

        var text: String { String(decoding: body, as: UTF8.self) }
    }

    fileprivate let socket: Int32
    private var buffer: [UInt8] = []

    /// Connects to 127.0.0.1:`port` from `source` (another loopback address stands for another client);
    /// reads give up after `timeout` seconds (by default `TestTimeout`'s, generous on purpose: see there).
    /// `receiveBuffer` sets SO_RCVBUF before connecting (a small window for a slow reader).
    init(
        port: Int, timeout: Int = TestTimeout.responseSeconds, source: String = "127.0.0.1", receiveBuffer: Int? = nil
    ) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket() failed") }
        var tv = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        if var size = receiveBuffer.map(Int32.init) {
            setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let code = errno
            Glibc.close(socket)
            throw Failure(description: "bind to \(source) failed: errno \(code)")
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            Glibc.close(socket)
            throw Failure(description: "connect failed: errno \(code)")
        }
    }

    deinit {
        Glibc.close(socket)
    }

    /// Writes all of `bytes`.
    func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { throw Failure(description: "send failed: errno \(errno)") }
            offset += written
        }
    }

    func write(_ text: String) throws {
        try write(Array(text.utf8))
    }

    /// Reads more bytes; returns false at EOF, throws on error or timeout.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        if count < 0 { throw Failure(description: "recv failed: errno \(errno)") }
        if count == 0 { return false }
        buffer.append(contentsOf: chunk[..<count])
        return true
    }

    /// Reads one response (Content-Length framing; a HEAD response has no body).
    func readResponse(head: Bool = false) throws -> Response {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var end: Int?
        while end == nil {
            if let range = buffer.firstRange(of: separator) {
                end = range.upperBound
            } else if try !fill() {
                throw Failure(description: "EOF before the response headers")
            }
        }
        guard let headerEnd = end else { throw Failure(description: "unreachable") }
        let headerText = String(decoding: buffer[..<headerEnd], as: UTF8.self)
        var lines = headerText.split(separator: "\r\n").map(String.init)
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw Failure(description: "bad status line")
        }
        let headers = lines.compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingCharacters(in: " "))
        }
        let length = head ? 0 : Int(headers.first { $0.0.lowercased() == "content-length" }?.1 ?? "0") ?? 0
        while buffer.count < headerEnd + length {
            guard try fill() else { throw Failure(description: "EOF inside the body") }
        }
        let body = Array(buffer[headerEnd..<(headerEnd + length)])
        buffer.removeFirst(headerEnd + length)
        return Response(status: status, headers: headers, body: body)
    }

    /// Whether response bytes are waiting to be read right now (a non-blocking peek).
    func hasPendingBytes() -> Bool {
        var byte: UInt8 = 0
        return !buffer.isEmpty || recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) > 0
    }

    /// Ends the stream to the server (a half close): what was written is all it will get; replies can still come.
    func finishWriting() {
        Glibc.shutdown(socket, Int32(SHUT_WR))
    }

    /// Closes both directions now (the file descriptor is closed on deinit).
    func hangUp() {
        Glibc.shutdown(socket, Int32(SHUT_RDWR))
    }

    /// Whether the server closed the connection (EOF or reset) before `timeout` seconds passed.
    func isClosedByServer() -> Bool {
        do {
            while try fill() {}
            return true
        } catch let failure as Failure {
            return failure.description.contains("errno \(ECONNRESET)")
        } catch {
            return false
        }
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        var result = Substring(self)
        while result.first == set { result = result.dropFirst() }
        while result.last == set { result = result.dropLast() }
        return String(result)
    }
}

/// Runs blocking socket work on a thread of its own: a blocked `recv` must not occupy the cooperative pool
/// or libdispatch's workers (on Linux both share one pool, which grows only about once a second, so a
/// blocked worker would starve the very responder the test is waiting for).
func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(with: Result { try work() })
        }
    }
}

extension RawHTTPClient {
    /// `readResponse` off the cooperative pool.
    func response(head: Bool = false) async throws -> Response {
        try await offPool { try self.readResponse(head: head) }
    }

    /// `isClosedByServer` off the cooperative pool.
    func closedByServer() async throws -> Bool {
        try await offPool { self.isClosedByServer() }
    }
}

extension RawHTTPClient {
    /// Writes `bytes` one at a time, `interval` apart, until the server closes the connection or `limit` passes;
    /// returns how long the server let it go on, or `nil` when it never closed it. Blocking: call it off the pool.
    func trickle(_ bytes: [UInt8], every interval: Duration, for limit: Duration) -> Duration? {
        let start = ContinuousClock.now
        var index = 0
        while ContinuousClock.now - start < limit {
            var byte = bytes[index % bytes.count]
            index += 1
            if Glibc.send(socket, &byte, 1, Int32(MSG_NOSIGNAL)) < 0 { return ContinuousClock.now - start }
            var peek: UInt8 = 0
            let peeked = recv(socket, &peek, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
            if peeked == 0 || (peeked < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
                return ContinuousClock.now - start
            }
            let parts = interval.components
            Thread.sleep(forTimeInterval: Double(parts.seconds) + Double(parts.attoseconds) * 1e-18)
        }
        return nil
    }
}

extension RawHTTPClient {
    /// What `slowRead` saw: the bytes read, and how long the server let it go on (`nil`: it never ended the connection).
    struct SlowRead: Sendable {
        let bytes: Int
        let ended: Duration?
    }

    /// Reads at most `chunk` bytes every `interval`, as a client on a slow link does, until the server ends the
    /// connection (end of stream or reset), `total` bytes arrived, or `limit` passes. Blocking: call it off the pool.
    func slowRead(_ chunk: Int, every interval: Duration, upTo total: Int, for limit: Duration) -> SlowRead {
        let start = ContinuousClock.now
        var received = buffer.count
        buffer.removeAll()
        var bytes = [UInt8](repeating: 0, count: chunk)
        while ContinuousClock.now - start < limit, received < total {
            let count = bytes.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
                return SlowRead(bytes: received, ended: ContinuousClock.now - start)
            }
            received += max(0, count)
            let parts = interval.components
            Thread.sleep(forTimeInterval: Double(parts.seconds) + Double(parts.attoseconds) * 1e-18)
        }
        return SlowRead(bytes: received, ended: nil)
    }
}
