/// The bytes of the load generator's HTTP/1.1 exchanges, shared by the blocking and the event-loop clients: a
/// request with Content-Length, and a response framed by Content-Length (RFC 9112 §6.3 rule 6; no chunked bodies,
/// which passkeyd never sends). This is benchmark tooling only: the server parses HTTP with libmicrohttpd.
enum HTTP1Framing {
    /// One parsed response and how many bytes of the buffer it took.
    struct Response {
        let status: Int
        let body: [UInt8]
        /// Bytes of the buffer the response occupied (head and body).
        let length: Int
        /// Whether the server announced `Connection: close`.
        let closes: Bool
    }

    /// A POST of a JSON body.
    static func post(_ path: String, host: String, port: UInt16, body: [UInt8]) -> [UInt8] {
        let head =
            "POST \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nContent-Type: application/json\r\n"
            + "Accept: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
        return Array(head.utf8) + body
    }

    /// A GET asking for JSON.
    static func get(_ path: String, host: String, port: UInt16) -> [UInt8] {
        Array("GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nAccept: application/json\r\n\r\n".utf8)
    }

    /// The response at the start of `buffer`, or `nil` while it is incomplete.
    /// - Throws: `.malformedResponse` for a head this client cannot frame.
    static func response(in buffer: [UInt8]) throws(LoadgenError) -> Response? {
        // RFC 9112 §2.1: status-line CRLF *(field-line CRLF) CRLF [message-body]
        guard let end = headEnd(in: buffer) else { return nil }
        guard let head = String(validating: buffer[0..<end], as: UTF8.self) else {
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
        guard buffer.count >= bodyStart + contentLength else { return nil }
        return Response(
            status: status, body: Array(buffer[bodyStart..<(bodyStart + contentLength)]),
            length: bodyStart + contentLength, closes: closes)
    }

    /// The offset of the CRLF CRLF ending the head, if the buffer holds it.
    private static func headEnd(in buffer: [UInt8]) -> Int? {
        guard buffer.count >= 4 else { return nil }
        var index = 0
        while index <= buffer.count - 4 {
            if buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
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
