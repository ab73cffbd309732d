import Foundation
import Storage
import StorageSQLite
import Testing

@Suite("SQLite migrations")
struct SQLiteSchemaTests {
    @Test("a database at v1 is migrated to the latest version at open, keeping its data")
    func migratesOlderDatabase() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let configuration = SQLiteConfiguration(directory: directory, readerCount: 1)
        let v1Only = Array(SQLiteSchema.migrations.prefix(1))
        let old = try await SQLiteStore.open(configuration, migrations: v1Only)
        // A row of a table no later migration changes (later ones add columns to others, which v1 lacks).
        try await old.write {
            try $0.insertSigningKey(
                SigningKey(
                    kid: "kept", algorithm: "ES256", privateKey: [1], publicKey: [2],
                    createdAt: Date(timeIntervalSince1970: 0)))
        }
        // v2's tables do not exist yet.
        await #expect(throws: StorageError.self) {
            try await old.read { try $0.deviceKeys(userID: "u") }
        }
        await old.close()

        let current = try await SQLiteStore.open(configuration)
        let session = try await current.read { try $0.signingKeys().first }
        let keys = try await current.read { try $0.deviceKeys(userID: "u") }
        await current.close()
        #expect(session?.kid == "kept")
        #expect(keys.isEmpty)
    }

    @Test("a fresh database gets every migration")
    func migratesFreshDatabase() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try await SQLiteStore.open(SQLiteConfiguration(directory: directory, readerCount: 1))
        let event = try await store.write {
            try $0.appendSecurityEvent(SecurityEvent(occurredAt: Date(), storedKind: "k", outcome: "o"))
        }
        await store.close()
        #expect(event.seq == 1)
    }

    @Test("a database newer than the binary is refused with .migration")
    func refusesNewerDatabase() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let configuration = SQLiteConfiguration(directory: directory, readerCount: 1)
        let store = try await SQLiteStore.open(configuration)
        await store.close()
        await #expect(throws: StorageError(.migration, "")) {
            try await SQLiteStore.open(configuration, migrations: Array(SQLiteSchema.migrations.prefix(1)))
        }
    }

    @Test("a migration whose SQL fails leaves the database at its previous version")
    func failedMigrationRollsBack() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let configuration = SQLiteConfiguration(directory: directory, readerCount: 1)
        let next = SQLiteSchema.migrations.count + 1
        let broken =
            SQLiteSchema.migrations + [
                Migration(version: next, name: "broken", statements: ["CREATE TABLE t (x INTEGER) STRICT", "NOT SQL"])
            ]
        await #expect(throws: StorageError(.migration, "")) {
            try await SQLiteStore.open(configuration, migrations: broken)
        }
        // The new version was not recorded, and its first statement was rolled back: a corrected one applies cleanly.
        let fixed =
            SQLiteSchema.migrations + [
                Migration(version: next, name: "broken", statements: ["CREATE TABLE t (x INTEGER) STRICT"])
            ]
        let store = try await SQLiteStore.open(configuration, migrations: fixed)
        await store.close()
    }
}
