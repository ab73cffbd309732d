import Foundation
import Storage
import StorageSQLite
import TestSupport
import Testing

/// A full disk: `PRAGMA max_page_count` on the writer makes SQLite answer SQLITE_FULL as a full volume does, and
/// raising it is the space freed.
@Suite("SQLiteStore on a full disk")
struct SQLiteDiskFullTests {
    /// An event whose detail takes a few pages: a write that needs the database file to grow.
    static func bulkyEvent(_ n: Int) -> SecurityEvent {
        SecurityEvent(
            occurredAt: Date(), storedKind: "bulky-\(n)", outcome: "success", detail: Array(repeating: 7, count: 20_000)
        )
    }

    static func fileSize(_ path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    @Test(
        "a write that meets a full disk is `.unavailable` (disk full) and wrote nothing; once space is freed the same store writes again"
    )
    func fullThenFreed() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try await SQLiteStore.open(SQLiteConfiguration(directory: directory, readerCount: 1))
        _ = try await store.write { try $0.appendSecurityEvent(Self.bulkyEvent(0)) }
        // SQLite keeps max_page_count at the database's current size at least: the file may grow no more.
        try await store.setMaxPageCountForTesting(1)
        do {
            _ = try await store.write { try $0.appendSecurityEvent(Self.bulkyEvent(1)) }
            Issue.record("a write past a full disk succeeded")
        } catch let error as StorageError {
            #expect(error.code == .unavailable, "\(error)")
            #expect(error.unavailability == .diskFull, "\(error)")
            #expect(error.description.contains("unavailable[disk_full]"), "\(error)")
        }
        #expect(try await store.read { try $0.securityEvents(after: 0, limit: 10) }.map(\.kind) == ["bulky-0"])
        try await store.setMaxPageCountForTesting(nil)
        _ = try await store.write { try $0.appendSecurityEvent(Self.bulkyEvent(2)) }
        #expect(
            try await store.read { try $0.securityEvents(after: 0, limit: 10) }.map(\.kind) == [
                "bulky-0", "bulky-2",
            ])
        await store.close()
    }

    @Test(
        "while the disk stays full every write is refused before it touches the file; once freed the WAL is copied and truncated first, then writes go on"
    )
    func refusedUntilCheckpointed() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let configuration = SQLiteConfiguration(directory: directory, readerCount: 1)
        let store = try await SQLiteStore.open(configuration)
        for n in 0..<20 { _ = try await store.write { try $0.appendSecurityEvent(Self.bulkyEvent(n)) } }
        try await store.setMaxPageCountForTesting(1)
        await #expect(throws: StorageError(.unavailable, "")) {
            _ = try await store.write { try $0.appendSecurityEvent(Self.bulkyEvent(99)) }
        }
        await store.setDiskStaysFullForTesting(true)
        let before = [configuration.path, configuration.path + "-wal"].map { FileManager.default.contents(atPath: $0) }
        // The heartbeat would fit (one row overwritten in a page the file has): refused all the same, since each
        // write appending to the WAL would take the space an operator frees before the checkpoint can use it.
        do {
            try await store.write { try $0.recordHeartbeat(at: Date()) }
            Issue.record("a write went on while the disk stayed full")
        } catch let error as StorageError {
            #expect(error.unavailability == .diskFull, "\(error)")
        }
        let after = [configuration.path, configuration.path + "-wal"].map { FileManager.default.contents(atPath: $0) }
        #expect(after == before, "the file was written while the disk stayed full")
        let walBefore = Self.fileSize(configuration.path + "-wal")
        #expect(walBefore > 0)
        await store.setDiskStaysFullForTesting(false)
        try await store.setMaxPageCountForTesting(nil)
        try await store.write { try $0.recordHeartbeat(at: Date()) }
        // The WAL was copied into the database file and truncated before the heartbeat went into it.
        #expect(Self.fileSize(configuration.path + "-wal") < walBefore)
        #expect(try await store.read { try $0.securityEvents(after: 0, limit: 100) }.count == 20)
        await store.close()
    }

    @Test("a write beside one refused by a full disk, in its batch or the next, is never failed as an `.io` (a 500)")
    func batchSharedWithFullDisk() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try await SQLiteStore.open(SQLiteConfiguration(directory: directory, readerCount: 1))
        try await store.setMaxPageCountForTesting(1)
        let small = Task { () -> StorageError? in
            do {
                try await store.write { try $0.recordHeartbeat(at: Date()) }
                return nil
            } catch { return error as? StorageError }
        }
        let bulky = Task { () -> StorageError? in
            do {
                _ = try await store.write { try $0.appendSecurityEvent(Self.bulkyEvent(1)) }
                return nil
            } catch { return error as? StorageError }
        }
        let refused = await bulky.value
        #expect(refused?.unavailability == .diskFull, "\(String(describing: refused))")
        // Whatever the heartbeat met (its own batch, or the bulky one's), it was never a 500's `.io`.
        if let error = await small.value { #expect(error.code == .unavailable, "\(error)") }
        await store.close()
    }

    @Test(
        "on a volume with less free space than the WAL's threshold, the WAL is copied in the background long before it")
    func smallVolumeCheckpointsEarly() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try await SQLiteStore.open(
            SQLiteConfiguration(directory: directory, synchronous: .normal, readerCount: 1))
        // 256 KiB free: 63 frames of 4 KiB, where the WAL's threshold is 1,000 (4 MB, more than the volume holds).
        await store.setAvailableBytesForTesting(256 * 1_024)
        var commits = 0
        // A few dozen frames, far below the threshold; stops once the background copy has been seen to run.
        while store.checkpointStatistics.background == 0, commits < 50 {
            let kind = "e\(commits)"
            _ = try await store.write {
                try $0.appendSecurityEvent(SecurityEvent(occurredAt: Date(), storedKind: kind, outcome: "ok"))
            }
            commits += 1
        }
        let deadline = ContinuousClock.now + .seconds(30)
        while store.checkpointStatistics.background == 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))  // waits for the copy started after the last batch
        }
        #expect(store.checkpointStatistics.background >= 1, "\(store.checkpointStatistics) after \(commits) commits")
        await store.close()
    }
}
