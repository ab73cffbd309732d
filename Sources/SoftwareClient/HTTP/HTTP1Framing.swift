/// The bytes of a software client's HTTP/1.1 exchanges, shared by the blocking client (`passkeyd try`, the load
/// generator's sign-ups) and the load generator's event loop: a request with Content-Length, and a response framed by
/// Content-Length (RFC 9112 §6.3 rule 6; no chunked bodies, which passkeyd never sends). Client tooling only: the
/// server parses HTTP with libmicrohttpd.
package enum HTTP1Framing {
    /// One parsed response and how many bytes of the buffer it took.
    package struct Response {
        package let status: Int
        package let body: [UInt8]
        /// Bytes of the buffer the response occupied (head and body).
        package let length: Int
        /// Whether the server announced `Connection: close`.
        package let closes: Bool
    }

    /// A POST of a JSON body.
    package static func post(_ path: String, host: String, port: UInt16, body: [UInt8]) -> [UInt8] {
        let head =
            "POST \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nContent-Type: application/json\r\n"
            + "Accept: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
        return Array(head.utf8) + body
    }

    /// A GET asking for JSON.
    package static func get(_ path: String, host: String, port: UInt16) -> [UInt8] {
        Array("GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nAccept: application/json\r\n\r\n".utf8)
    }

    /// The response at the start of `buffer`, or `nil` while it is incomplete.
    ///
    /// Read as bytes, not as a String: splitting and lower-casing the head as text cost more CPU than signing the
    /// assertion, on the same two cores as the server being measured.
    /// - Throws: `.malformedResponse` for a head this client cannot frame.
    package static func response(in buffer: [UInt8]) throws(SoftwareClientError) -> Response? {
        // RFC 9112 §2.1: status-line CRLF *(field-line CRLF) CRLF [message-body]
        guard let end = headEnd(in: buffer) else { return nil }
        let head = buffer[0..<end]
        let firstLineEnd = lineEnd(in: head, from: 0)
        guard let status = statusCode(head[0..<firstLineEnd]) else {
            throw SoftwareClientError(.malformedResponse, "bad status line \(text(head[0..<firstLineEnd]))")
        }
        var contentLength = 0
        var closes = false
        var lineStart = firstLineEnd + 2
        while lineStart < end {
            let lineStop = lineEnd(in: head, from: lineStart)
            defer { lineStart = lineStop + 2 }
            // RFC 9112 §5.1: field-name ":" OWS field-value OWS
            guard let colon = head[lineStart..<lineStop].firstIndex(of: 0x3A) else { continue }
            let name = head[lineStart..<colon]
            let value = trimmed(head[(colon + 1)..<lineStop])
            if equalsIgnoringCase(name, "content-length") {
                guard let length = decimal(value) else {
                    throw SoftwareClientError(.malformedResponse, "bad Content-Length \(text(value))")
                }
                contentLength = length
            } else if equalsIgnoringCase(name, "transfer-encoding") {
                throw SoftwareClientError(
                    .malformedResponse, "Transfer-Encoding \(text(value)) is not supported by this client")
            } else if equalsIgnoringCase(name, "connection") {
                closes = text(value).lowercased().contains("close")
            }
        }
        let bodyStart = end + 4
        guard buffer.count >= bodyStart + contentLength else { return nil }
        return Response(
            status: status, body: Array(buffer[bodyStart..<(bodyStart + contentLength)]),
            length: bodyStart + contentLength, closes: closes)
    }

    /// RFC 9112 §4: `HTTP/1.x SP 3DIGIT SP [reason]`; the status code, or nil.
    private static func statusCode(_ line: ArraySlice<UInt8>) -> Int? {
        let prefix = Array("HTTP/1.".utf8)
        guard line.count >= 12, line.prefix(prefix.count).elementsEqual(prefix) else { return nil }
        let start = line.startIndex
        guard line[start + 8] == 0x20, line.count == 12 || line[start + 12] == 0x20 else { return nil }
        return decimal(line[(start + 9)..<(start + 12)])
    }

    /// The offset of the CRLF ending the line that starts at `start` (or the end of `head`).
    private static func lineEnd(in head: ArraySlice<UInt8>, from start: Int) -> Int {
        var index = start
        while index + 1 < head.endIndex {
            if head[index] == 13 && head[index + 1] == 10 { return index }
            index += 1
        }
        return head.endIndex
    }

    /// `bytes` without leading and trailing spaces and tabs (OWS).
    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slice = bytes
        while let first = slice.first, first == 0x20 || first == 0x09 { slice = slice.dropFirst() }
        while let last = slice.last, last == 0x20 || last == 0x09 { slice = slice.dropLast() }
        return slice
    }

    /// A non-empty run of ASCII digits as a number (nil for anything else, or past 18 digits).
    private static func decimal(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
        var value = 0
        for byte in bytes {
            guard (0x30...0x39).contains(byte) else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }

    /// Whether `bytes` spell `name` (lowercase ASCII) in any case.
    private static func equalsIgnoringCase(_ bytes: ArraySlice<UInt8>, _ name: StaticString) -> Bool {
        guard bytes.count == name.utf8CodeUnitCount else { return false }
        return name.withUTF8Buffer { expected in
            zip(bytes, expected).allSatisfy { byte, lower in
                (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) == lower
            }
        }
    }

    /// Bytes as text for an error message.
    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.prefix(200), as: UTF8.self)
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
