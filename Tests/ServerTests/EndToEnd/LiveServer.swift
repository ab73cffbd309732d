import Foundation
import TestSupport

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A passkeyd started on 127.0.0.1, port 0, with a fresh SQLite database in a temporary directory.
struct LiveServer {
    let running: PasskeydServer.Running
    let directory: URL
    var base: String { "http://127.0.0.1:\(running.port)" }

    static func start(
        environment: [String: String] = [:], clock: any WallClock = SystemClock(),
        logger: Logger = Logger(sink: { _ in })
    ) async throws -> LiveServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "passkeyd-e2e-\(UUID().uuidString)")
        var overrides = environment
        overrides["PASSKEYD_LISTEN_PORT"] = "0"
        overrides["PASSKEYD_DATA_DIRECTORY"] = directory.path
        overrides["PASSKEYD_HTTP_SHUTDOWN_GRACE_SECONDS"] = overrides["PASSKEYD_HTTP_SHUTDOWN_GRACE_SECONDS"] ?? "2"
        let configuration = try TestConfiguration.make(overrides)
        let running = try await PasskeydServer.start(
            configuration: configuration, logger: logger, clock: clock)
        return LiveServer(running: running, directory: directory)
    }

    func stop() async {
        await running.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Sends one request and returns status, headers and body.
    func send(
        _ method: String, _ path: String, body: Data? = nil, headers: [String: String] = [:], port: Int? = nil
    ) async throws -> (status: Int, headers: [String: String], body: Data) {
        guard let url = URL(string: "http://127.0.0.1:\(port ?? running.port)" + path) else { throw URLError(.badURL) }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.timeoutInterval = TimeInterval(TestTimeout.responseSeconds)
        let (data, response) = try await URLSession.shared.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        return (http.statusCode, fields, data)
    }
}
