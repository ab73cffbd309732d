import Foundation
import TestSupport
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("End to end: the daemon on 127.0.0.1, port 0")
struct ServerLifecycleTests {
    @Test(
        "a fresh start creates the database; health and readiness answer on both listeners, metrics on the admin one only"
    )
    func startAndServe() async throws {
        let server = try await LiveServer.start(environment: ["PASSKEYD_ADMIN_LISTEN": "127.0.0.1:0"])
        let health = try await server.send("GET", "/healthz")
        #expect(health.status == 200)
        #expect(health.headers["x-request-id"]?.isEmpty == false)
        #expect(try await server.send("GET", "/readyz").status == 200)
        #expect(try await server.send("GET", "/metrics").status == 404)
        let adminPort = try #require(server.running.adminPort)
        #expect(adminPort != server.running.port)
        #expect(try await server.send("GET", "/healthz", port: adminPort).status == 200)
        #expect(try await server.send("GET", "/readyz", port: adminPort).status == 200)
        let metrics = try await server.send("GET", "/metrics", port: adminPort)
        #expect(metrics.status == 200)
        let text = String(decoding: metrics.body, as: UTF8.self)
        #expect(text.contains(#"passkeyd_http_requests_total{route="/healthz",method="GET",status="200"} 1"#))
        #expect(text.contains(#"passkeyd_http_requests_total{route="/readyz",method="GET",status="200"} 1"#))
        #expect(text.contains(#"status="404""#))  // the public /metrics, unmatched
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
        // A request is counted when MHD reports it complete, which may come just after its answer reached us. The
        // HTTP layer answers the 501 before routing: its route is "transport" for paths that match none.
        func counted(_ count: Int) -> String {
            #"passkeyd_http_requests_total{route="transport",method="other",status="501"} "# + String(count)
        }
        #expect(try await server.send("FLOOD0", "/x0").status == 501)
        #expect(try await eventually { series().contains(counted(1)) })
        let before = series().count
        for index in 1...30 {
            #expect(try await server.send("FLOOD\(index)", "/x\(index)").status == 501)
        }
        #expect(try await eventually { series().contains(counted(31)) })
        let after = series()
        #expect(after.count == before)
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
            "POST", "/healthz", body: Data(repeating: 0x41, count: 10_000),
            headers: ["Content-Type": "application/json"])
        #expect(response.status == 413)
        #expect(String(decoding: response.body, as: UTF8.self).contains("request_too_large"))
        await server.stop()
    }

    @Test("after stop the port no longer accepts requests, and a restart finds the same database")
    func stopAndRestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "passkeyd-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try await LiveServer.start(environment: ["PASSKEYD_DATA_DIRECTORY": directory.path])
        #expect(try await first.send("GET", "/readyz").status == 200)
        await first.running.stop()
        await #expect(throws: (any Error).self) { try await first.send("GET", "/healthz") }
        let second = try await LiveServer.start(environment: ["PASSKEYD_DATA_DIRECTORY": directory.path])
        #expect(try await second.send("GET", "/readyz").status == 200)
        await second.running.stop()
    }

    @Test("a second server on the same data directory refuses to start, naming the directory and the holder's PID")
    func oneServerPerDataDirectory() async throws {
        let first = try await LiveServer.start()
        let configuration = try TestConfiguration.make([
            "PASSKEYD_LISTEN_PORT": "0", "PASSKEYD_DATA_DIRECTORY": first.directory.path,
        ])
        do {
            let second = try await PasskeydServer.start(configuration: configuration, logger: Logger(sink: { _ in }))
            await second.stop()
            Issue.record("a second server started on \(first.directory.path)")
        } catch let error as PasskeydServer.StartError {
            #expect(
                error.description.hasPrefix(
                    "data directory \(first.directory.path) is in use by another passkeyd (pid \(getpid()))"),
                "\(error)")
            #expect(!error.description.contains("\n"))
        }
        #expect(try await first.send("GET", "/readyz").status == 200)  // the first is untouched
        await first.running.stop()
        // Stopped, the first released the directory: a new server starts on it. A few tries: a child process that
        // another test spawns at that moment holds a copy of this process's descriptors, the lock's among them,
        // until it execs (O_CLOEXEC acts only at the exec); a lock still held after 5 s is a real failure.
        var third: PasskeydServer.Running?
        for attempt in 1...20 where third == nil {
            do {
                third = try await PasskeydServer.start(configuration: configuration, logger: Logger(sink: { _ in }))
            } catch let error as PasskeydServer.StartError where error.description.contains("is in use") && attempt < 20
            {
                try await Task.sleep(for: .milliseconds(250))
            }
        }
        #expect(third != nil)
        await third?.stop()
        try? FileManager.default.removeItem(at: first.directory)
    }

    @Test("the passkeyd binary, started on the data directory of a running server, exits 1 with one line naming it")
    func secondProcessRefused() async throws {
        let root = PasskeydBinary.repository
        let binary = try PasskeydBinary.locate()
        let first = try await LiveServer.start()
        let process = Process()
        process.executableURL = binary
        process.arguments = [
            "serve", "--config", root.appendingPathComponent("Config/passkeyd.json").path, "--port", "0",
            "--data-dir", first.directory.path,
        ]
        process.environment = ["PASSKEYD_ADMIN_LISTEN": "", "PATH": "/usr/bin:/bin"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let exited = await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                continuation.resume(returning: -1)
                return
            }
            // Were the directory not locked, the second server would serve: stop it so the test ends.
            DispatchQueue.global().asyncAfter(deadline: .now() + 20) { if process.isRunning { process.terminate() } }
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(exited == 1, "\(text)")
        let lines = text.split(separator: "\n").filter { $0.contains("is in use by another passkeyd") }
        #expect(lines.count == 1, "\(text)")
        #expect(
            lines.first?.contains(
                "data directory \(first.directory.path) is in use by another passkeyd (pid \(getpid()))") == true,
            "\(text)")
        await first.stop()
    }
}
