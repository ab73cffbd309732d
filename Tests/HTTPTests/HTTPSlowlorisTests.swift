import Foundation
import Testing

@testable import HTTP

/// Slow and greedy clients, bounded to a few seconds on loopback: 127.0.0.2 plays the attacker, 127.0.0.1 the
/// client that must still be served.
@Suite("HTTPServer: slowloris defences (loopback, a few seconds)", .serialized)
struct HTTPSlowlorisTests {
    @Test("one address holding connections up to its limit is refused more, while another address is served")
    func perAddressLimit() async throws {
        let configuration = HTTPServer.Configuration(
            port: 0, requestReadTimeout: .seconds(60), perAddressConnectionLimit: 3)
        try await HTTPServerTests.withServer(configuration) { _, port in
            var held: [RawHTTPClient] = []
            for _ in 0..<3 {
                let client = try RawHTTPClient(port: port, source: "127.0.0.2")
                // One whole request first: its answer proves the server accepted this connection before the next
                // one connects (two polling threads accept in either order).
                try client.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(try await client.response().status == 200)
                try client.write("GET /healthz HTTP/1.1\r\nHost: x\r\n")  // headers never finished
                held.append(client)
            }
            let refused = try RawHTTPClient(port: port, timeout: 10, source: "127.0.0.2")
            #expect(try await refused.closedByServer())
            let served = try RawHTTPClient(port: port, source: "127.0.0.1")
            try served.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await served.response().status == 200)
            // The held connections are still open: finishing one is answered.
            try held[0].write("\r\n")
            #expect(try await held[0].response().status == 200)
        }
    }

    @Test("one network's addresses together are refused past its limit, while another network is served")
    func perNetworkLimit() async throws {
        // Linux routes all of 127.0.0.0/8 to the loopback: 127.0.0.2-5 are one /24, 127.0.1.2 another.
        let configuration = HTTPServer.Configuration(
            port: 0, requestReadTimeout: .seconds(60), perAddressConnectionLimit: 2, perNetworkConnectionLimit: 3)
        try await HTTPServerTests.withServer(configuration) { _, port in
            var held: [RawHTTPClient] = []
            for source in ["127.0.0.2", "127.0.0.3", "127.0.0.4"] {  // each address well under its own limit
                let client = try RawHTTPClient(port: port, source: source)
                // A whole request first: its answer proves the server counted this connection.
                try client.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(try await client.response().status == 200)
                try client.write("GET /healthz HTTP/1.1\r\nHost: x\r\n")  // headers never finished
                held.append(client)
            }
            let refused = try RawHTTPClient(port: port, timeout: 10, source: "127.0.0.5")
            #expect(try await refused.closedByServer())
            let otherNetwork = try RawHTTPClient(port: port, source: "127.0.1.2")
            try otherNetwork.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await otherNetwork.response().status == 200)
            // One held connection closes: once the server has seen it, the network has room again.
            held.removeFirst().hangUp()
            var admitted = false
            for _ in 0..<300 where !admitted {
                admitted = try await offPool { Self.isServed(port: port, from: "127.0.0.5") }
                if !admitted { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(admitted, "the network's count did not go down when a connection closed")
        }
    }

    /// Whether a request from `source` is answered, rather than its connection closed unanswered. Blocking.
    static func isServed(port: Int, from source: String) -> Bool {
        guard let client = try? RawHTTPClient(port: port, timeout: 10, source: source),
            (try? client.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")) != nil
        else { return false }
        return (try? client.readResponse().status) == 200
    }

    @Test("a client reading its response a few KiB at a time is cut at the write deadline, not kept by each read")
    func slowReader() async throws {
        // The idle timeout (120 s) never fires: every read lets the server write a little more.
        let configuration = HTTPServer.Configuration(
            port: 0, connectionTimeout: .seconds(120), responseWriteTimeout: .seconds(1))
        try await HTTPServerTests.withServer(configuration) { _, port in
            let client = try RawHTTPClient(port: port, receiveBuffer: 4_096)
            try client.write("GET /large HTTP/1.1\r\nHost: x\r\n\r\n")
            // 4 KiB every 20 ms: the 16 MiB body would take over a minute.
            let read = try await offPool {
                client.slowRead(
                    4_096, every: .milliseconds(20), upTo: HTTPServerTests.largeBodyBytes, for: .seconds(30))
            }
            let ended = try #require(read.ended, "the slow reader was never cut (\(read.bytes) bytes read)")
            #expect(read.bytes < HTTPServerTests.largeBodyBytes)
            // 1 s plus the reaper's period, which a loaded machine can stretch; the idle timeout would be 120 s.
            #expect(ended < .seconds(20), "cut after \(ended)")
            let other = try RawHTTPClient(port: port)
            try other.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await other.response().status == 200)
        }
    }

    /// A request trickled a byte every 100 ms: the idle timeout (30 s) never fires, the read deadline (1 s) does.
    static let trickled: [(String, String)] = [
        ("headers", "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: "),
        ("body", "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n"),
    ]

    @Test("a trickling request is cut at the read deadline, not kept alive byte by byte", arguments: trickled)
    func trickle(_ part: String, _ start: String) async throws {
        let configuration = HTTPServer.Configuration(
            port: 0, maxBodyBytes: 1024, connectionTimeout: .seconds(30), requestReadTimeout: .seconds(1))
        try await HTTPServerTests.withServer(configuration) { _, port in
            let client = try RawHTTPClient(port: port)
            try client.write(start)
            let lasted = try await offPool {
                client.trickle(Array("abcdefgh".utf8), every: .milliseconds(100), for: .seconds(15))
            }
            // 1 s plus the reaper's period (it runs on the cooperative pool, which a loaded test machine can hold
            // up for seconds); the idle timeout, which every byte restarts, would be 30 s.
            let cut = try #require(lasted, "the \(part) trickle was never cut")
            #expect(cut < .seconds(10), "\(part) cut after \(cut)")
            // Meanwhile and after, the server answers others.
            let other = try RawHTTPClient(port: port)
            try other.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await other.response().status == 200)
        }
    }

    @Test("a keep-alive connection gets a full read timeout for each request")
    func keepAlive() async throws {
        // Two pauses of 3 s each: together longer than the 5 s timeout, each 2 s within it (a loaded machine's
        // scheduling delays stay far below that margin). The pauses and the reads run on a thread of their own, so a
        // busy cooperative pool cannot stretch a pause past the timeout.
        let configuration = HTTPServer.Configuration(port: 0, requestReadTimeout: .seconds(5))
        try await HTTPServerTests.withServer(configuration) { _, port in
            let client = try RawHTTPClient(port: port)
            let statuses = try await offPool {
                try (0..<2).map { _ in
                    Thread.sleep(forTimeInterval: 3)
                    try client.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                    return try client.readResponse().status
                }
            }
            #expect(statuses == [200, 200])
        }
    }
}
