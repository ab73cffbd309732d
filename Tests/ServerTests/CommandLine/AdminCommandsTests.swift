import Crypto
import Foundation
import HTTP
import JSON
import Storage
import TestSupport
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("Operator commands on accounts", .serialized)
struct AdminCommandsTests {
    @Test("users, passkeys, sessions and device-keys parse with --json, --actor and server flags")
    func parsing() throws {
        /// The account command `arguments` name: its shared options and its request.
        func parse(_ arguments: [String]) throws -> (AccountOptions, AdminRequest)? {
            (try CommandRegistry.passkeyd.parse(arguments) as? any AccountCommand).map { ($0.options, $0.request) }
        }
        func expect(_ arguments: [String], _ options: AccountOptions, _ request: AdminRequest) throws {
            let parsed = try parse(arguments)
            #expect(parsed?.0 == options && parsed?.1 == request, "\(arguments)")
        }
        try expect(
            ["users", "list", "--json", "--limit", "5", "--config", "c.json"],
            AccountOptions(configuration: .init(path: "c.json"), json: true), .listUsers(after: nil, limit: 5))
        try expect(
            ["passkeys", "revoke", "u1", "AAAA", "--actor", "ops"], AccountOptions(actor: "ops"),
            .revokePasskey(userID: "u1", credentialID: "AAAA"))
        try expect(["sessions", "revoke", "u1"], AccountOptions(), .revokeSessions(userID: "u1"))
        try expect(
            ["device-keys", "revoke", "u1", "k1", "--data-dir", "/d"],
            AccountOptions(configuration: .init(overrides: .init(dataDirectory: "/d"))),
            .revokeDeviceKey(userID: "u1", keyID: "k1"))
        try expect(["sessions", "revoke-all", "--actor", "ops"], AccountOptions(actor: "ops"), .revokeAllSessions)
        try expect(
            ["users", "unlock", "u1", "--actor", "ops"], AccountOptions(actor: "ops"), .unlockUser(userID: "u1"))
        #expect(throws: UsageError.self) { try parse(["users", "unlock"]) }
        #expect(throws: UsageError.self) { try parse(["sessions", "revoke-all", "u1"]) }
        #expect(throws: UsageError.self) { try parse(["users", "delete"]) }
        #expect(throws: UsageError.self) { try parse(["passkeys", "list", "u1", "--bogus"]) }
        #expect(throws: UsageError.self) { try parse(["users", "list", "--limit", "0"]) }
        // A page (--after, --limit) is users list's alone; the other commands refuse it rather than ignore it.
        #expect(throws: UsageError("unknown option --limit for users show", usage: [UsersShowCommand.synopsis])) {
            try parse(["users", "show", "u1", "--limit", "5"])
        }
        #expect(throws: UsageError.self) { try parse(["sessions", "revoke-all", "--after", "u1"]) }
    }

    @Test("against the store of a running daemon: list, show, revoke a passkey and sessions, delete; audited")
    func againstRunningServer() async throws {
        let server = try await LiveServer.startForLifecycle()
        var ann = Passkey()
        let tokens = try await server.signUp(&ann, email: "ann@example.com")
        let refresh = try #require(tokens["refresh_token"]?.stringValue)
        var bob = Passkey()
        _ = try await server.signUp(&bob, email: "bob@example.com")
        let configuration = server.running.context.configuration
        let store = server.running.context.store
        let annHandle = ann.userHandle
        let annID = try #require(try await store.read { try $0.user(userHandle: annHandle) }?.id)

        let listed = try await AdminCommands.run(
            .listUsers(after: nil, limit: 10), configuration: configuration, json: true, actor: "ops")
        #expect(listed.status == 0)
        let users = try JSONValue(parsing: Array(listed.output.utf8)).arrayValue ?? []
        #expect(users.count == 2)
        let shown = try await AdminCommands.run(
            .showUser(userID: annID), configuration: configuration, json: true, actor: "ops")
        #expect(try JSONValue(parsing: Array(shown.output.utf8))["passkeys"]?.arrayValue?.count == 1)
        let missing = try await AdminCommands.run(
            .showUser(userID: "nobody"), configuration: configuration, json: true, actor: "ops")
        #expect(missing.status == 1)

        // Sessions: the refresh token stops working.
        let sessions = try await AdminCommands.run(
            .revokeSessions(userID: annID), configuration: configuration, json: true, actor: "ops")
        #expect(sessions.status == 0)
        #expect(try await server.refresh(refresh).status == 403)
        // Another user's passkey is not found; the own one is revoked and no longer logs in.
        let bobsKey = Base64URL.encode(bob.credentialID)
        #expect(
            try await AdminCommands.run(
                .revokePasskey(userID: annID, credentialID: bobsKey), configuration: configuration, json: false,
                actor: "ops"
            ).status == 1)
        let revoked = try await AdminCommands.run(
            .revokePasskey(userID: annID, credentialID: Base64URL.encode(ann.credentialID)),
            configuration: configuration, json: false, actor: "ops")
        #expect(revoked.status == 0)
        #expect(try await server.logIn(&ann) == 403)
        #expect(try await server.logIn(&bob) == 200)
        // Delete: no row left; the audit names the operator.
        let deleted = try await AdminCommands.run(
            .deleteUser(userID: annID), configuration: configuration, json: true, actor: "ops")
        #expect(deleted.status == 0)
        #expect(try await store.read { try $0.rowsMentioningUser(id: annID, userHandle: annHandle) } == [:])
        let events = try await store.read { try $0.securityEvents(userID: annID, limit: 50) }
        for kind in ["sessions_revoked", "passkey_removed", "account_deleted"] {
            let event = events.first { $0.kind == kind }
            let detail = String(decoding: event?.detail ?? [], as: UTF8.self)
            #expect(detail.contains("operator:ops"), "\(kind)")
        }
        await server.stop()
    }

    @Test("users unlock: the password and recovery locks lifted, one audit event names the operator; unknown is 1")
    func unlock() async throws {
        let alice = try await FallbackThrottleTests.alice([
            "PASSKEYD_SRP_MAX_FAILURES": "3", "PASSKEYD_SRP_DELAY_AFTER_FAILURES": "3",
        ])
        let (srp, recovery) = (alice.srp, alice.recovery)
        let identity = FallbackThrottleTests.identity
        for _ in 1...3 {
            let session = try await FallbackThrottleTests.srpSession(srp)
            #expect(await FallbackThrottleTests.guess(srp, session: session).errorCode == "invalid_grant")
            #expect(try await recovery.recover(identifier: identity, code: "0000-0000-0000").status == 403)
        }
        #expect(await recovery.challenge(identifier: identity).errorCode == "recovery_locked")
        let handle = alice.passkey.userHandle
        let userID = try #require(try await srp.store.read { try $0.user(userHandle: handle) }?.id)

        let unlocked = try await AdminCommands.run(
            .unlockUser(userID: userID), store: srp.store, json: true, actor: "ops", now: srp.clock.now())
        #expect(unlocked.status == 0)
        let output = try JSONValue(parsing: Array(unlocked.output.utf8))
        #expect(output["unlocked"]?.stringValue == userID)
        #expect(output["counters_cleared"] == JSONValue(2))
        #expect(
            try await srp.logIn(identity: identity, password: FallbackThrottleTests.password).response.status == 200)
        #expect(try await recovery.recover(identifier: identity, code: alice.codes[0]).status == 200)
        let event = try #require(try await srp.events().last { $0.kind == "login_locks_lifted" })
        #expect(event.userID == userID && event.reasonCode == "operator" && event.attempts == 2)
        #expect(String(decoding: event.detail ?? [], as: UTF8.self).contains("operator:ops"))

        let text = try await AdminCommands.run(
            .unlockUser(userID: userID), store: srp.store, json: false, actor: "ops", now: srp.clock.now())
        #expect(text.output == "unlocked \(userID): 0 failure counter(s) cleared")
        let missing = try await AdminCommands.run(
            .unlockUser(userID: "nobody"), store: srp.store, json: false, actor: "ops", now: srp.clock.now())
        #expect(missing.status == 1)
    }

    @Test("sessions revoke-all: every user's refresh tokens stop working, one audit event names the operator and count")
    func revokeAll() async throws {
        let server = try await LiveServer.startForLifecycle()
        var ann = Passkey()
        let annRefresh = try #require(
            try await server.signUp(&ann, email: "ann@example.com")["refresh_token"]?.stringValue)
        var bob = Passkey()
        let bobRefresh = try #require(
            try await server.signUp(&bob, email: "bob@example.com")["refresh_token"]?.stringValue)
        let configuration = server.running.context.configuration
        let revoked = try await AdminCommands.run(
            .revokeAllSessions, configuration: configuration, json: true, actor: "ops")
        #expect(revoked.status == 0)
        #expect(try JSONValue(parsing: Array(revoked.output.utf8))["revoked_sessions"] == JSONValue(2))
        #expect(try await server.refresh(annRefresh).status == 403)
        #expect(try await server.refresh(bobRefresh).status == 403)
        #expect(try await server.logIn(&ann) == 200, "passkeys still log in: a new session starts")
        let events = try await server.running.context.store.read { try $0.securityEvents(after: 0, limit: 100) }
        let event = try #require(events.last { $0.kind == "sessions_revoked" })
        #expect(event.userID == nil && event.reasonCode == "operator_all" && event.attempts == 2)
        #expect(String(decoding: event.detail ?? [], as: UTF8.self).contains("operator:ops"))
        await server.stop()
    }
}
