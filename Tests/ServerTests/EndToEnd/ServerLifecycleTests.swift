import Foundation
import Testing

@testable import Server

@Suite("End to end: the daemon on 127.0.0.1, port 0")
struct ServerLifecycleTests {
    @Test("a fresh start creates the database; health, readiness and metrics answer over HTTP")
    func startAndServe() async throws {
        let server = try await LiveServer.start()
        let health = try await server.send("GET", "/healthz")
        #expect(health.status == 200)
        #expect(health.headers["x-request-id"]?.isEmpty == false)
        #expect(try await server.send("GET", "/readyz").status == 200)
        let metrics = try await server.send("GET", "/metrics")
        let text = String(decoding: metrics.body, as: UTF8.self)
        #expect(text.contains(#"passkeyd_http_requests_total{route="/healthz",method="GET",status="200"} 1"#))
        #expect(text.contains(#"passkeyd_http_requests_total{route="/readyz",method="GET",status="200"} 1"#))
        #expect(FileManager.default.fileExists(atPath: server.directory.appendingPathComponent("passkeyd.sqlite").path))
        await server.stop()
    }

    @Test("many distinct unknown methods get 501 and add no metrics series: they are all counted as `other`")
    func methodFlood() async throws {
        let server = try await LiveServer.start()
        func series() -> [String] {
            server.running.context.metrics.render().split(separator: "\n").map(String.init)
                .filter { $0.hasPrefix("passkeyd_http_request") && !$0.hasPrefix("passkeyd_http_requests_in_flight") }
        }
        #expect(try await server.send("FLOOD0", "/healthz").status == 501)
        let before = series().count
        for index in 1...30 {
            #expect(try await server.send("FLOOD\(index)", "/x\(index)").status == 501)
        }
        let after = series()
        #expect(after.count == before)
        #expect(after.contains(#"passkeyd_http_requests_total{route="unmatched",method="other",status="501"} 31"#))
        #expect(!after.contains { $0.contains("FLOOD") })
        await server.stop()
    }

    @Test("a client-supplied request id is echoed")
    func requestID() async throws {
        let server = try await LiveServer.start()
        let response = try await server.send("GET", "/healthz", headers: ["X-Request-Id": "trace-123"])
        #expect(response.headers["x-request-id"] == "trace-123")
        await server.stop()
    }

    @Test("an oversized body is refused with 413 and a JSON error")
    func bodyLimit() async throws {
        let server = try await LiveServer.start(environment: ["PASSKEYD_HTTP_MAX_BODY_BYTES": "2048"])
        let response = try await server.send(
            "POST", "/healthz", body: Data(repeating: 0x41, count: 10_000), headers: ["Content-Type": "application/json"])
        #expect(response.status == 413)
        #expect(String(decoding: response.body, as: UTF8.self).contains("request_too_large"))
        await server.stop()
    }

    @Test("after stop the port no longer accepts requests, and a restart finds the same database")
    func stopAndRestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("passkeyd-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try await LiveServer.start(environment: ["PASSKEYD_DATA_DIRECTORY": directory.path])
        #expect(try await first.send("GET", "/readyz").status == 200)
        await first.running.stop()
        await #expect(throws: (any Error).self) { try await first.send("GET", "/healthz") }
        let second = try await LiveServer.start(environment: ["PASSKEYD_DATA_DIRECTORY": directory.path])
        #expect(try await second.send("GET", "/readyz").status == 200)
        await second.running.stop()
    }
}
