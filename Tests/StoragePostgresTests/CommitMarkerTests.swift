import Foundation
import Storage
import Testing

@testable import StoragePostgres

/// The commit markers' upkeep: one per connection at a time, what is left behind purged by housekeeping.
@Suite("Commit markers: inserted by every write, deleted by the connection's next one, leftovers purged after an hour")
struct CommitMarkerTests {
    /// Runs `sql` on a connection of the test's own and returns its value.
    static func value(_ configuration: PostgresConfiguration, _ sql: String) throws -> String? {
        let connection = PostgresConnection(configuration: configuration, counters: PostgresCounters())
        defer { connection.disconnect() }
        try connection.connectIfNeeded()
        return try connection.simpleValue(sql)
    }

    @Test(
        "each committed write leaves its marker and deletes the one before it: one row for a connection's five writes",
        .enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.skipReason))
    func oneMarkerPerConnection() async throws {
        try await PostgresTestDatabase.withStore(poolSize: 1) { store, configuration in
            #expect(try Self.value(configuration, "SELECT count(*) FROM commit_markers") == "0")
            for index in 0..<5 {
                try await store.write { try $0.insertAuthSession(AuthSession.sample("session-\(index)")) }
            }
            #expect(try Self.value(configuration, "SELECT count(*) FROM commit_markers") == "1")
            // A write that rolls back deletes nothing: the marker before it stays until a write commits.
            await #expect(throws: StorageError.self) {
                try await store.write { try $0.insertAuthSession(AuthSession.sample("session-0")) }
            }
            #expect(try Self.value(configuration, "SELECT count(*) FROM commit_markers") == "1")
            try await store.write { try $0.insertAuthSession(AuthSession.sample("session-5")) }
            #expect(try Self.value(configuration, "SELECT count(*) FROM commit_markers") == "1")
        }
    }

    @Test(
        "housekeeping deletes the markers left behind for more than an hour by the database's clock, and no other",
        .enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.skipReason))
    func purge() async throws {
        try await PostgresTestDatabase.withStore(poolSize: 1) { store, configuration in
            let old = try #require(CommitMarker(bytes: [UInt8](repeating: 1, count: 16)))
            let young = try #require(CommitMarker(bytes: [UInt8](repeating: 2, count: 16)))
            try await store.executeForTesting(
                "INSERT INTO commit_markers (marker, created_at) VALUES (\(old.literal), now() - interval '61 minutes')"
            )
            try await store.executeForTesting(
                "INSERT INTO commit_markers (marker, created_at) VALUES (\(young.literal), now() - interval '59 minutes')"
            )
            // A node's clock (here far behind) does not decide: the purge's cutoff is the database's.
            let result = try await store.write {
                try $0.purgeExpired(now: Date(timeIntervalSinceReferenceDate: 0), limit: 100)
            }
            #expect(result == PurgeResult())
            let left = try Self.value(
                configuration,
                "SELECT string_agg(encode(marker, 'hex'), ',' ORDER BY marker) FROM commit_markers "
                    + "WHERE marker IN (\(old.literal), \(young.literal))")
            #expect(left == "02020202020202020202020202020202")
            // The purge's own write left its marker.
            #expect(try Self.value(configuration, "SELECT count(*) FROM commit_markers") == "2")
        }
    }
}
