import Foundation
import SoftwareClient

/// `passkeyd try`: a native app in software against a running server — a sign-up with a new software passkey, then
/// a login with it, each request printed with its status, then the tokens' claims (`PasskeyTrial`). A refusal is
/// printed with the server's answer, and the status is 1.
package struct TryCommand: Command, Equatable {
    /// `--url URL`: the server, `http://HOST[:PORT]`.
    static let url = Option<TrialServer>("--url", "URL", requirement: "must be http://HOST[:PORT]") {
        TrialServer(url: $0)
    }
    /// `--client-id ID`: the client the app is.
    static let clientID = Option<String>.nonEmpty("--client-id", "ID", requirement: "needs a client id")
    /// `--origin ORIGIN`: the origin in the ceremonies' client data.
    static let origin = Option<String>.nonEmpty("--origin", "ORIGIN", requirement: "needs an origin")
    /// `--client-secret-file FILE`: a confidential client's secret, read from a file (never from the command line,
    /// where other users' `ps` would see it).
    static let clientSecretFile = Option<String>.nonEmpty(
        "--client-secret-file", "FILE", requirement: "needs a file holding the client's secret")

    package static let words = ["try"]
    package static let flags: [any Flag] = [url, clientID, origin, clientSecretFile]
    package static let summary = """
        Sign up with a new software passkey against a running server, log in with it, and print each request and
        the tokens' claims; exit 1 with the server's answer if it refuses. --url: default http://localhost:8080;
        --client-id: default demo-native-app; --origin: default https://<RP ID> (an iOS app's origin);
        --client-secret-file: a confidential client's secret (client_secret_post).
        """

    /// The server tried.
    package var server: TrialServer
    /// The client id sent.
    package var clientID: String
    /// The origin written into `clientDataJSON`; `nil`: `https://<RP ID>`.
    package var origin: String?
    /// The file of the client's secret; `nil`: a public client.
    package var clientSecretFile: String?

    package init(
        server: TrialServer = TrialServer.local, clientID: String = "demo-native-app", origin: String? = nil,
        clientSecretFile: String? = nil
    ) {
        self.server = server
        self.clientID = clientID
        self.origin = origin
        self.clientSecretFile = clientSecretFile
    }

    package init(_ arguments: ParsedArguments) {
        self.init(
            server: arguments[Self.url] ?? TrialServer.local, clientID: arguments[Self.clientID] ?? "demo-native-app",
            origin: arguments[Self.origin], clientSecretFile: arguments[Self.clientSecretFile])
    }

    /// The secret in `file`: its text without the trailing line break an editor or `echo` leaves.
    static func secret(inFile file: String) throws(CommandFailure) -> String {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw CommandFailure("try: cannot read \(file)")
        }
        let secret = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !secret.isEmpty else { throw CommandFailure("try: \(file) holds no secret") }
        return secret
    }

    package func run(_ context: CommandContext) async throws(CommandFailure) -> Int32 {
        let secret = try clientSecretFile.map { (file) throws(CommandFailure) in try Self.secret(inFile: file) }
        let trial = PasskeyTrial(
            server: server, clientID: clientID, clientSecret: secret, origin: origin, output: context.output)
        // The client's socket blocks: it runs on a thread of its own, never on the cooperative pool.
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
            Thread {
                do {
                    try trial.run()
                    continuation.resume(returning: nil)
                } catch let error as SoftwareClientError {
                    continuation.resume(returning: error.reason)
                } catch {
                    continuation.resume(returning: "\(error)")
                }
            }.start()
        }
        if let outcome { throw CommandFailure("try: \(outcome)") }
        return 0
    }
}

/// The server `passkeyd try` talks to: plain HTTP to a host and port (the software client speaks no TLS).
package struct TrialServer: Sendable, Equatable {
    /// `http://localhost:8080`, where `make run` serves.
    package static let local = TrialServer(host: "localhost", port: 8080)

    package let host: String
    package let port: UInt16

    package init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// `http://HOST[:PORT][/]` (port 80 when absent); `nil` for anything else.
    package init?(url: String) {
        guard let components = URLComponents(string: url), components.scheme?.lowercased() == "http",
            let host = components.host, !host.isEmpty, components.path.isEmpty || components.path == "/",
            components.query == nil, components.user == nil
        else { return nil }
        let port = components.port ?? 80
        guard let port16 = UInt16(exactly: port), port16 > 0 else { return nil }
        self.init(host: host, port: port16)
    }

    /// `http://HOST:PORT`.
    package var url: String { "http://\(host):\(port)" }
}
