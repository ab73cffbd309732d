import Foundation
import JSON
import Storage
import Synchronization
import Testing

@testable import Commands
@testable import Service

@Suite("passkeyd keys rotate-session-key beside a running SQLite server")
struct SessionKeyRotationEndToEndTests {
    /// The server reads the secrets again as its 30 s reload would (the test does not wait for it).
    static func reload(_ server: LiveServer) async throws -> Bool {
        try await server.running.context.authSessionKey.reload()
    }

    @Test("a ceremony begun before the rotation completes after it; --now refuses one begun before it")
    func rotation() async throws {
        let server = try await LiveServer.startForPasskeys()
        var authenticator = Passkey()
        _ = try await server.signUp(&authenticator, email: "rotate-session@example.com")
        let configuration = server.running.context.configuration
        let before = try await server.loginChallenge()

        let waits = Mutex(0)
        try await KeysRotateSessionKeyCommand.rotate(
            configuration: configuration, immediately: false, publicationDelay: .zero
        ) { _ in waits.withLock { $0 += 1 } }
        #expect(waits.withLock { $0 } == 1, "the command waited for the nodes before the new key sealed")
        #expect(try await Self.reload(server))
        // Sealed under the old secret, completed under the new one: still opens (previous).
        let completed = try await server.token(session: before.session, response: authenticator.assert(before.options))
        #expect(completed.status == 200)
        #expect(try await server.logIn(&authenticator) == 200)

        // --now: the secret that sealed `pending` opens nothing more, once the server has read the change.
        let pending = try await server.loginChallenge()
        try await KeysRotateSessionKeyCommand.rotate(
            configuration: configuration, immediately: true, publicationDelay: .seconds(3_600))
        #expect(try await Self.reload(server))
        let refused = try await server.token(session: pending.session, response: authenticator.assert(pending.options))
        #expect(refused.status == 403)
        #expect(refused.body["error"] == "invalid_grant")
        #expect(try await server.logIn(&authenticator) == 200)

        let events = try await server.running.context.store.read { try $0.securityEvents(after: 0, limit: 100) }
        #expect(
            events.filter { $0.kind == "server_secret_rotated" }.map(\.reasonCode) == [
                "previous_kept", "previous_dropped",
            ])
        await server.stop()
    }
}
