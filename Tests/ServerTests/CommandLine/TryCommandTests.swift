import Foundation
import Testing

@testable import Commands
@testable import passkeyd

@Suite("passkeyd try against a running server")
struct TryCommandTests {
    /// Runs `passkeyd` with `arguments`: the status, and the lines of standard output and standard error.
    static func run(_ arguments: [String]) async -> (status: Int32, output: [String], errors: [String]) {
        let output = PasskeyHarness.LogLines()
        let errors = PasskeyHarness.LogLines()
        let context = CommandContext(
            environment: [:], registry: .passkeyd, output: output.append, errorOutput: errors.append)
        let status = await CommandRegistry.passkeyd.run(arguments, context: context)
        return (status, output.all, errors.all)
    }

    @Test("signs up and logs in with a software passkey, printing each step and the login's tokens' claims")
    func signUpAndLogIn() async throws {
        let server = try await LiveServer.start()
        let (status, output, errors) = await Self.run(["try", "--url", server.base, "--client-id", "app"])
        await server.stop()
        #expect(status == 0, "\(errors)")
        #expect(errors.isEmpty)
        // The five requests, in order, each answered 200.
        let steps = output.filter { $0.hasPrefix("GET ") || $0.hasPrefix("POST ") }
        let expected = [
            "GET /.well-known/openid-configuration: 200", "POST /passkey/register (try-", "POST /oauth/token (sign-up",
            "POST /passkey/challenge: 200", "POST /oauth/token (login",
        ]
        #expect(steps.count == expected.count, "\(output)")
        for (step, prefix) in zip(steps, expected) { #expect(step.hasPrefix(prefix), "\(step)") }
        #expect(steps.allSatisfy { $0.contains(": 200") }, "\(steps)")
        #expect(output.contains("GET /.well-known/openid-configuration: 200, issuer \(TestConfiguration.issuer)"))
        #expect(output.contains { $0.hasPrefix("POST /oauth/token (login") && $0.contains("access_token, id_token") })
        // The claims of both tokens, decoded: the issuer, and the subject the sign-up created.
        let access = try #require(output.firstIndex(of: "access token claims:"))
        let id = try #require(output.firstIndex(of: "ID token claims:"))
        #expect(output[access..<id].contains("  iss: \"\(TestConfiguration.issuer)\""), "\(output)")
        #expect(output[id...].contains("  aud: \"app\""), "\(output)")
        #expect(output[id...].contains { $0.hasPrefix("  email: \"try-") && $0.hasSuffix("@example.com\"") })
    }

    @Test("--client-secret-file: a confidential client's secret, read from a file, sent with each request")
    func confidentialClient() async throws {
        let secret = "try-Secret_0123456789abcdefghijklmnopqrstuvwx"
        let server = try await LiveServer.start(environment: [
            "PASSKEYD_CLIENTS": """
            [{"client_id": "backend", "grant_types": ["urn:okta:params:oauth:grant-type:webauthn", "refresh_token"],
              "client_secret_sha256": ["\(ClientsNewSecretCommand.hash(of: secret))"]}]
            """
        ])
        let file = server.directory.appendingPathComponent("secret.txt")
        try FileManager.default.createDirectory(at: server.directory, withIntermediateDirectories: true)
        try Data((secret + "\n").utf8).write(to: file)
        let base = ["try", "--url", server.base, "--client-id", "backend", "--origin", "https://example.com"]
        let (status, output, errors) = await Self.run(base + ["--client-secret-file", file.path])
        let (without, _, refusal) = await Self.run(base)
        let (missing, _, unreadable) = await Self.run(base + ["--client-secret-file", file.path + ".absent"])
        let empty = server.directory.appendingPathComponent("empty.txt")
        try Data("\n".utf8).write(to: empty)
        let (blank, _, noSecret) = await Self.run(base + ["--client-secret-file", empty.path])
        await server.stop()
        #expect(status == 0, "\(errors) \(output)")
        #expect(output.contains { $0.hasPrefix("POST /oauth/token (login") && $0.contains("access_token") })
        #expect(without == 1 && refusal.first?.contains("invalid_client") == true, "\(refusal)")
        #expect(missing == 1 && unreadable.first?.contains("cannot read") == true, "\(unreadable)")
        #expect(blank == 1 && noSecret.first?.contains("holds no secret") == true, "\(noSecret)")
    }

    @Test("a refusal ends it with the server's answer and status 1")
    func refusal() async throws {
        let server = try await LiveServer.start()
        let (status, output, errors) = await Self.run(["try", "--url", server.base, "--client-id", "no-such-client"])
        await server.stop()
        #expect(status == 1)
        #expect(output.contains { $0.hasPrefix("GET /.well-known/openid-configuration: 200") })
        #expect(!output.contains { $0.hasPrefix("POST ") })
        #expect(errors.count == 1)
        let line = try #require(errors.first)
        #expect(line.hasPrefix("passkeyd: try: /passkey/register answered 4"), "\(line)")
        #expect(line.contains("\"error\":"), "\(line)")
    }

    @Test("--url is http://HOST[:PORT]; anything else is a usage error")
    func url() async {
        #expect(TrialServer(url: "http://localhost:8080") == TrialServer(host: "localhost", port: 8080))
        #expect(TrialServer(url: "http://127.0.0.1:9000/") == TrialServer(host: "127.0.0.1", port: 9000))
        #expect(TrialServer(url: "http://example.com") == TrialServer(host: "example.com", port: 80))
        for refused in ["https://localhost:8080", "localhost:8080", "http://localhost:8080/x", "http://:80"] {
            #expect(TrialServer(url: refused) == nil, "\(refused)")
        }
        let (status, _, errors) = await Self.run(["try", "--url", "https://localhost"])
        #expect(status == 2)
        #expect(errors.first == "passkeyd: --url must be http://HOST[:PORT]\nusage: \(TryCommand.synopsis)")
    }
}
