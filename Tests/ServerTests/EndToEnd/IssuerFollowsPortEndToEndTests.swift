import Foundation
import Testing

@testable import Commands
@testable import Service
@testable import passkeyd

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A TCP port that was free on 127.0.0.1 a moment ago (the kernel's pick for port 0, released).
private func freePort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
            bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
        }
    }
    try #require(bound)
    return Int(UInt16(bigEndian: address.sin_port))
}

@Suite("serve --port on the shipped configuration")
struct IssuerFollowsPortEndToEndTests {
    /// `serve --config Config/passkeyd.json --port P` on a free port P, as the command line loads it, with
    /// `environment`; the server, P, and its discovery document.
    static func serve(environment: [String: String], lines: PasskeyHarness.LogLines) async throws -> (
        running: PasskeydServer.Running, port: Int, discovery: [String: Any]
    ) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "passkeyd-port-\(UUID().uuidString)")
        var started: (PasskeydServer.Running, Int)?
        var failure: (any Error)?
        // The port was free when picked; another process may take it before the bind, then pick again.
        for _ in 0..<5 where started == nil {
            let port = try freePort()
            let command = try #require(
                try CommandRegistry.passkeyd.parse([
                    "serve", "--config", PasskeydBinary.repository.appendingPathComponent("Config/passkeyd.json").path,
                    "--port", "\(port)", "--data-dir", directory.path,
                ]) as? ServeCommand)
            let configuration = try command.configuration.load(
                environment.merging(["PASSKEYD_ADMIN_LISTEN": ""]) { $1 })
            do {
                started = (
                    try await PasskeydServer.start(configuration: configuration, logger: Logger(sink: lines.append)),
                    port
                )
            } catch {
                failure = error
            }
        }
        let (running, port) = try #require(started, "\(String(describing: failure))")
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/.well-known/openid-configuration"))
        let (data, _) = try await URLSession.shared.data(from: url)
        let discovery = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return (running, port, discovery)
    }

    @Test("discovery's issuer and endpoints follow --port on Config/passkeyd.json, and no warning is logged")
    func discoveryFollowsPort() async throws {
        let lines = PasskeyHarness.LogLines()
        let (running, port, discovery) = try await Self.serve(environment: [:], lines: lines)
        await running.stop()
        try? FileManager.default.removeItem(atPath: running.context.configuration.dataDirectory)
        #expect(discovery["issuer"] as? String == "http://localhost:\(port)/")
        #expect(discovery["token_endpoint"] as? String == "http://localhost:\(port)/oauth/token")
        #expect(!lines.all.contains { $0.contains("configuration warning") }, "\(lines.all)")
    }

    @Test("with PASSKEYD_ISSUER set the issuer stays, and the start logs a warning naming both ports")
    func explicitIssuerWarns() async throws {
        let lines = PasskeyHarness.LogLines()
        let (running, port, discovery) = try await Self.serve(
            environment: ["PASSKEYD_ISSUER": "http://localhost:8080/"], lines: lines)
        await running.stop()
        try? FileManager.default.removeItem(atPath: running.context.configuration.dataDirectory)
        #expect(discovery["issuer"] as? String == "http://localhost:8080/")
        let warnings = lines.all.filter { $0.contains("configuration warning") }
        #expect(warnings.count == 1, "\(lines.all)")
        #expect(warnings.first?.contains("is on port 8080 while the server listens on \(port)") == true)
    }
}
