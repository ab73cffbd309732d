import Crypto
import Foundation
import JSON
import Metadata
import Storage
import TestSupport
import Testing

@testable import Commands
@testable import Service
@testable import passkeyd

/// `passkeyd metadata load|show|status` and `passkeys list --aaguid`, run as the binary runs them, on the database
/// of a running server, which picks a loaded BLOB up at its next refresh.
@Suite("metadata commands beside a running server", .serialized)
struct MetadataCommandsTests {
    /// The repository's Config/passkeyd.json.
    static let config = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Config/passkeyd.json").path

    /// Runs `passkeyd arguments --config Config/passkeyd.json` on `server`'s data directory and the fixture's root.
    static func run(_ arguments: [String], _ server: LiveServer, _ fixture: MetadataFixture) async
        -> (status: Int32, output: String, errors: [String])
    {
        let output = PasskeyHarness.LogLines()
        let errors = PasskeyHarness.LogLines()
        var environment = fixture.environment(withFile: false)
        environment["PASSKEYD_DATA_DIRECTORY"] = server.directory.path
        let context = CommandContext(
            environment: environment, registry: .passkeyd, output: output.append, errorOutput: errors.append)
        let status = await CommandRegistry.passkeyd.run(arguments + ["--config", config], context: context)
        return (status, output.all.joined(separator: "\n"), errors.all)
    }

    @Test("load verifies and stores (refusals: one line, exit 1, the stored BLOB kept); status and show read it")
    func loadShowStatus() async throws {
        let fixture = try MetadataFixture()
        defer { fixture.remove() }
        let server = try await LiveServer.start(
            environment: PasskeyHarness.overrides.merging(fixture.environment(withFile: false)) { $1 })
        let now = Date()
        let file = fixture.directory.appendingPathComponent("download.jwt")
        func load(_ text: String) async throws -> (status: Int32, output: String, errors: [String]) {
            try text.write(to: file, atomically: true, encoding: .utf8)
            return await Self.run(["metadata", "load", file.path], server, fixture)
        }

        let none = await Self.run(["metadata", "status"], server, fixture)
        #expect(none.status == 1 && none.output.contains("no metadata BLOB is stored"), "\(none)")
        let ten = try fixture.blob(serial: 10, now: now)
        let tampered = try await load(
            MetadataFixture.tampered(try fixture.blob(serial: 11, now: now), signatureOf: ten))
        #expect(tampered.status == 1)
        #expect(tampered.errors.count == 1 && tampered.errors.first?.contains("bad_signature") == true, "\(tampered)")
        #expect(tampered.errors.first?.contains("no BLOB is stored") == true, "\(tampered)")

        let loaded = try await load(ten)
        #expect(loaded.status == 0, "\(loaded)")
        #expect(
            loaded.output
                == "stored: metadata BLOB serial 10, 1 entries, next update \(MetadataFixture.day(30, after: now))")
        let refusals = [
            (try fixture.blob(serial: 4, now: now), "older than the stored BLOB's 10"),
            (try fixture.blob(serial: 12, days: -3, now: now), "stale"),
            (try fixture.blob(serial: 10, now: now, entries: []), "same serial 10"),
        ]
        for (text, reason) in refusals {
            let refused = try await load(text)
            #expect(refused.status == 1, "\(reason)")
            #expect(refused.errors.count == 1, "one line: \(refused.errors)")
            #expect(refused.errors.first?.contains(reason) == true, "\(refused.errors)")
            #expect(refused.errors.first?.contains("the stored BLOB (serial 10) is kept") == true, "\(refused.errors)")
        }
        let again = try await load(ten)
        #expect(again.status == 0 && again.output.hasPrefix("already stored: metadata BLOB serial 10"), "\(again)")
        let events = try await server.running.context.store.read { try $0.securityEvents(after: 0, limit: 1_000) }
        #expect(events.filter { $0.kind == SecurityEvent.Kind.metadataLoaded.rawValue }.count == 1)

        // The running server picks it up at its next refresh.
        #expect(server.running.context.metadata.current() == nil)
        await server.running.context.metadata.refresh()
        #expect(server.running.context.metadata.current()?.blob.serial == 10)
        #expect(server.running.context.metadata.current()?.source == "cli")

        let status = await Self.run(["metadata", "status", "--json"], server, fixture)
        #expect(status.status == 0, "\(status)")
        let statusJSON = try JSONValue(parsing: Array(status.output.utf8))
        #expect(statusJSON["serial"]?.intValue == 10 && statusJSON["entries"]?.intValue == 1)
        #expect(statusJSON["source"]?.stringValue == "cli" && statusJSON["stale"] == false)
        #expect(statusJSON["verified"] == true)
        #expect(statusJSON["next_update"]?.stringValue == MetadataFixture.day(30, after: now))

        let aaguid = UUIDText.format(MetadataFixture.aaguid)
        let shown = await Self.run(["metadata", "show", aaguid], server, fixture)
        #expect(shown.status == 0, "\(shown)")
        for line in [
            "description: Acme Test Key", "aaguid: \(aaguid)", "status: FIDO_CERTIFIED_L1",
            "certification: FIDO_CERTIFIED_L1", "report: FIDO_CERTIFIED_L1 effective 2020-01-01", "icon: yes",
        ] {
            #expect(shown.output.split(separator: "\n").contains(Substring(line)), "\(line) in \(shown.output)")
        }
        #expect(!shown.output.contains("COMPROMISED"))
        let raw = await Self.run(["metadata", "show", aaguid.uppercased(), "--json"], server, fixture)
        #expect(try JSONValue(parsing: Array(raw.output.utf8)) == MetadataFixture.entry())
        let unknown = await Self.run(
            ["metadata", "show", UUIDText.format([UInt8](repeating: 7, count: 16))], server, fixture)
        #expect(unknown.status == 1 && unknown.output.contains("no entry for AAGUID"), "\(unknown)")
        let malformed = await Self.run(["metadata", "show", "not-a-uuid"], server, fixture)
        #expect(malformed.status == 2, "\(malformed)")
        await server.stop()
    }

    @Test("passkeys list --aaguid: every user's passkeys of the authenticator, paged; USER --aaguid filters")
    func passkeysByAAGUID() async throws {
        let fixture = try MetadataFixture()
        defer { fixture.remove() }
        let server = try await LiveServer.start(
            environment: PasskeyHarness.overrides.merging(fixture.environment(withFile: false)) { $1 })
        var users: [String] = []
        for n in 0..<3 {
            var passkey = Passkey()
            if n < 2 { passkey.authenticator.aaguid = MetadataFixture.aaguid }
            _ = try await server.signUp(&passkey, email: "user\(n)@example.com")
            let handle = passkey.userHandle
            users.append(
                try #require(try await server.running.context.store.read { try $0.user(userHandle: handle) }?.id))
        }
        let file = fixture.directory.appendingPathComponent("download.jwt")
        try fixture.blob(serial: 1, now: Date()).write(to: file, atomically: true, encoding: .utf8)
        #expect(await Self.run(["metadata", "load", file.path], server, fixture).status == 0)

        let aaguid = UUIDText.format(MetadataFixture.aaguid)
        let all = await Self.run(["passkeys", "list", "--aaguid", aaguid, "--json"], server, fixture)
        #expect(all.status == 0, "\(all)")
        let listed = try JSONValue(parsing: Array(all.output.utf8)).arrayValue ?? []
        #expect(Set(listed.compactMap { $0["user_id"]?.stringValue }) == Set(users.prefix(2)))
        #expect(listed.allSatisfy { $0["name"]?.stringValue == "Acme Test Key" }, "named from the stored BLOB")
        #expect(listed.allSatisfy { $0["authenticator"]?["status"]?.stringValue == "FIDO_CERTIFIED_L1" })
        let first = await Self.run(["passkeys", "list", "--aaguid", aaguid, "--limit", "1"], server, fixture)
        let firstID = try #require(first.output.split(separator: "\t").first.map(String.init))
        #expect(first.output.split(separator: "\n").count == 1)
        let rest = await Self.run(
            ["passkeys", "list", "--aaguid", aaguid, "--after", firstID, "--limit", "5"], server, fixture)
        #expect(rest.output.split(separator: "\n").count == 1)
        #expect(!rest.output.contains(firstID))
        let other = await Self.run(["passkeys", "list", users[2], "--aaguid", aaguid, "--json"], server, fixture)
        #expect(other.status == 0 && other.output == "[]", "\(other)")
        let own = await Self.run(["passkeys", "list", users[0], "--aaguid", aaguid], server, fixture)
        #expect(own.output.hasSuffix("\tAcme Test Key"), "\(own)")
        let shown = await Self.run(["users", "show", users[2], "--json"], server, fixture)
        #expect(
            try JSONValue(parsing: Array(shown.output.utf8))["passkeys"]?.arrayValue?.first?["name"]?.stringValue
                == "Passkey")
        #expect(await Self.run(["passkeys", "list"], server, fixture).status == 2, "USER or --aaguid")
        #expect(await Self.run(["passkeys", "list", users[0], "--limit", "2"], server, fixture).status == 2)
        #expect(await Self.run(["passkeys", "list", "--aaguid", "nope"], server, fixture).status == 2)
        await server.stop()
    }
}
