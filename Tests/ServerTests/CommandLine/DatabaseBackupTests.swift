import Foundation
import Storage
import StorageSQLite
import TestSupport
import Testing

@testable import Commands
@testable import Configuration
@testable import Endpoints
@testable import Service
@testable import passkeyd

/// `passkeyd database backup`: a consistent copy of the SQLite database beside a running server.
@Suite("database backup: SQLite, beside a running server")
struct DatabaseBackupTests {
    static func configuration(_ directory: URL) throws -> ServerConfiguration {
        var overrides = PasskeyHarness.overrides
        overrides["PASSKEYD_DATA_DIRECTORY"] = directory.path
        return try TestConfiguration.make(overrides)
    }

    @Test("taken while sign-ups go on: one snapshot, checked, 0600, and a node started on it logs the user in")
    func whileServing() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("passkeyd-backup-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let node = try await LiveServer.startForPasskeys(directory: directory.appendingPathComponent("live"))
        var first = Passkey()
        _ = try await node.signUp(&first, email: "first@example.com")
        // Sign-ups beside the backup: each writes a user and its passkey in one transaction.
        let signUps = Task {
            for n in 0..<15 {
                var authenticator = Passkey()
                _ = try await node.signUp(&authenticator, email: "during\(n)@example.com")
            }
        }
        // A metadata BLOB stored beside the node, as `passkeyd metadata load` does (schema v19).
        let blob = MetadataBLOBRecord(
            serial: 7, jws: "header.payload.signature", sha256: [UInt8](repeating: 0x71, count: 32),
            nextUpdate: Date(timeIntervalSince1970: 1_900_000_000),
            loadedAt: Date(timeIntervalSince1970: 1_800_000_000),
            source: "cli")
        try await DatabaseDrivers.withStore(try Self.configuration(directory.appendingPathComponent("live"))) {
            store in
            _ = try await store.write { try $0.storeMetadataBLOB(blob) }
        }
        let destination = directory.appendingPathComponent("backup.sqlite").path
        let lines = try DatabaseBackupCommand.run(
            configuration: try Self.configuration(directory.appendingPathComponent("live")), to: destination)
        try await signUps.value
        await node.stopKeepingData()
        #expect(lines.first?.contains("integrity check ok") == true, "\(lines)")
        let attributes = try FileManager.default.attributesOfItem(atPath: destination)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(!FileManager.default.fileExists(atPath: destination + ".partial"))

        // One snapshot: every user in it has the passkey it signed up with.
        let restored = directory.appendingPathComponent("restored")
        try FileManager.default.createDirectory(at: restored, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: destination, toPath: restored.appendingPathComponent("passkeyd.sqlite").path)
        let store = try await DatabaseDrivers.openStore(try Self.configuration(restored))
        let users = try await store.read { try $0.users(afterID: nil, limit: 100) }
        #expect((1...16).contains(users.count))
        for user in users {
            #expect(try await store.read { try $0.credentials(userID: user.id) }.count == 1, "\(user.id)")
        }
        #expect(try await store.read { try $0.latestMetadataBLOB() } == blob, "the metadata BLOB is in the backup")
        await store.close()

        let restoredNode = try await LiveServer.startForPasskeys(directory: restored)
        #expect(try await restoredNode.logIn(&first) == 200, "the backup serves a login")
        await restoredNode.stop()
    }

    @Test("refusals: an existing file is never overwritten, no source, a PostgreSQL configuration, no directory")
    func refusals() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("passkeyd-backup-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let node = try await LiveServer.startForPasskeys(directory: directory)
        await node.stopKeepingData()
        let configuration = try Self.configuration(directory)
        func refusal(_ configuration: ServerConfiguration, _ destination: String) async -> String {
            await databaseCommandRefusal { () throws(DatabaseCommandFailure) in
                try DatabaseBackupCommand.run(configuration: configuration, to: destination)
            }
        }
        let existing = directory.appendingPathComponent("existing").path
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: existing))
        #expect(await refusal(configuration, existing).contains("never overwrites"))
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "keep me")
        let nowhere = directory.appendingPathComponent("no/such/dir/backup.sqlite").path
        #expect(await refusal(configuration, nowhere).contains("cannot create"))
        var missing = configuration
        missing.dataDirectory = directory.appendingPathComponent("none").path
        #expect(await refusal(missing, directory.appendingPathComponent("b1").path).contains("no SQLite database"))
        var postgres = configuration
        postgres.database.url = "postgres://db.internal/passkeyd"
        #expect(await refusal(postgres, directory.appendingPathComponent("b2").path).contains("PostgreSQL's tools"))
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(!left.contains { $0.hasSuffix(".partial") || $0 == "b1" || $0 == "b2" }, "\(left)")
    }

    @Test("restore: the backup in place, the replaced database and its WAL kept aside, users since the backup gone")
    func restore() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("passkeyd-restore-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = directory.appendingPathComponent("data")
        let configuration = try Self.configuration(data)
        let node = try await LiveServer.startForPasskeys(directory: data)
        var before = Passkey()
        _ = try await node.signUp(&before, email: "before@example.com")
        let backup = directory.appendingPathComponent("backup.sqlite").path
        _ = try DatabaseBackupCommand.run(configuration: configuration, to: backup)
        var after = Passkey()
        _ = try await node.signUp(&after, email: "after@example.com")
        // The WAL as a crash would leave it (the node's frames not yet checkpointed into the file).
        let database = try #require(configuration.sqliteFile)
        let wal = try Data(contentsOf: URL(fileURLWithPath: database + "-wal"))

        let running = await Self.restoreRefusal(configuration, backup)
        #expect(running.contains("in use by another passkeyd"), "\(running)")
        await node.stopKeepingData()
        let garbage = directory.appendingPathComponent("garbage").path
        try Data(repeating: 0x42, count: 8_192).write(to: URL(fileURLWithPath: garbage))
        let refused = await Self.restoreRefusal(configuration, garbage)
        #expect(refused.contains("not a database") || refused.contains("integrity"), "\(refused)")
        // A backup from a newer passkeyd: this binary could not serve it.
        let newerDirectory = directory.appendingPathComponent("newer")
        let newer = try await SQLiteStore.open(
            SQLiteConfiguration(directory: newerDirectory.path, fileName: "newer.sqlite"),
            migrations: SQLiteSchema.migrations + [
                Migration(version: SQLiteSchema.migrations.count + 1, name: "future", statements: [])
            ])
        await newer.close()
        let newerRefused = await Self.restoreRefusal(
            configuration, newerDirectory.appendingPathComponent("newer.sqlite").path)
        #expect(newerRefused.contains("newer than this binary's"), "\(newerRefused)")
        // Refused before anything moved: the database is where it was, nothing set aside.
        #expect(
            !(try FileManager.default.contentsOfDirectory(atPath: data.path)).contains { $0.contains("before-restore") }
        )

        try wal.write(to: URL(fileURLWithPath: database + "-wal"))
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let lines = try await DatabaseRestoreCommand.run(configuration: configuration, from: backup, now: now)
        let aside = database + ".before-restore-20270115T080000Z"
        #expect(lines.contains { $0.contains(aside) }, "\(lines)")
        let restored = try await LiveServer.startForPasskeys(directory: data)
        #expect(try await restored.logIn(&before) == 200, "a user from before the backup logs in")
        #expect(try await restored.logIn(&after) != 200, "a user signed up after the backup is not there")
        await restored.stopKeepingData()

        // The replaced database is whole where it was moved: the later user is in it.
        let kept = directory.appendingPathComponent("kept")
        try FileManager.default.createDirectory(at: kept, withIntermediateDirectories: true)
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: aside + suffix) {
            try FileManager.default.copyItem(
                atPath: aside + suffix, toPath: kept.appendingPathComponent("passkeyd.sqlite" + suffix).path)
        }
        let keptStore = try await DatabaseDrivers.openStore(try Self.configuration(kept))
        let emails = try await keptStore.read { try $0.users(afterID: nil, limit: 10) }.compactMap(\.email)
        await keptStore.close()
        #expect(Set(emails) == ["before@example.com", "after@example.com"])
    }

    static func restoreRefusal(_ configuration: ServerConfiguration, _ backup: String) async -> String {
        await databaseCommandRefusal { () throws(DatabaseCommandFailure) in
            try await DatabaseRestoreCommand.run(configuration: configuration, from: backup)
        }
    }
}
