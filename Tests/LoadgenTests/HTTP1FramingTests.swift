import SoftwareClient
import Testing

@testable import passkeyd_loadgen

@Suite("The load generator's HTTP/1.1 response framing")
struct HTTP1FramingTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test("status, body and length of a Content-Length response; header names in any case, OWS trimmed")
    func simple() throws {
        let wire = Self.bytes("HTTP/1.1 200 OK\r\nDate: x\r\ncOnTeNt-LeNgTh: \t5 \r\n\r\nhello")
        let response = try #require(try HTTP1Framing.response(in: wire))
        #expect(response.status == 200)
        #expect(response.body == Self.bytes("hello"))
        #expect(response.length == wire.count)
        #expect(!response.closes)
    }

    @Test("an incomplete head or body is not a response yet")
    func incomplete() throws {
        #expect(try HTTP1Framing.response(in: Self.bytes("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n")) == nil)
        #expect(try HTTP1Framing.response(in: Self.bytes("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhel")) == nil)
        #expect(try HTTP1Framing.response(in: []) == nil)
    }

    @Test("pipelined responses are taken one at a time; the reason phrase is optional; no Content-Length: no body")
    func pipelined() throws {
        let first = "HTTP/1.1 403 Forbidden\r\nContent-Length: 2\r\n\r\n{}"
        let wire = Self.bytes(first + "HTTP/1.1 204\r\n\r\n")
        let response = try #require(try HTTP1Framing.response(in: wire))
        #expect(response.status == 403)
        #expect(response.length == first.utf8.count)
        let next = try #require(try HTTP1Framing.response(in: Array(wire[response.length...])))
        #expect(next.status == 204)
        #expect(next.body.isEmpty)
    }

    @Test("Connection: close is noticed")
    func closes() throws {
        let wire = Self.bytes("HTTP/1.1 413 Too Large\r\nConnection: Close\r\nContent-Length: 0\r\n\r\n")
        #expect(try #require(try HTTP1Framing.response(in: wire)).closes)
    }

    @Test(
        "heads this client cannot frame are errors",
        arguments: [
            "HTTP/2 200 OK\r\n\r\n",
            "HTTP/1.1 2x0 OK\r\n\r\n",
            "HTTP/1.1 200OK\r\n\r\n",
            "ICY 200 OK\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 1e3\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length:\r\n\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n",
        ])
    func malformed(head: String) {
        #expect(throws: SoftwareClientError.self) { try HTTP1Framing.response(in: Self.bytes(head)) }
    }
}
