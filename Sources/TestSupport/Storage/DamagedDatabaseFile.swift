import Foundation
import Storage

/// A database file to damage, for the tests of what a damaged page does to a store (the reads that meet it, readiness,
/// refused writes): rows enough to span thousands of pages, then the second half of those pages overwritten.
public enum DamagedDatabaseFile {
    /// SQLite's default page size, which the stores keep.
    public static let pageSize = 4_096

    /// What went wrong preparing the damage.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Fills `store` with 5,000 security events of 40-byte details in one write: written last, their pages are the
    /// file's second half.
    public static func fill(_ store: any Store) async throws {
        try await store.write { writer in
            for n in 0..<5_000 {
                _ = try writer.appendSecurityEvent(
                    SecurityEvent(
                        occurredAt: Date(), storedKind: "event-\(n)", outcome: "success",
                        detail: Array(repeating: 7, count: 40)))
            }
        }
    }

    /// Overwrites the second half of the pages of the file at `path`, all but the last, with 0xFF bytes (no valid
    /// b-tree page type): the security events' pages; the schema and every other table, created first, stay intact.
    public static func damage(_ path: String) throws {
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        let pages = size / pageSize
        guard pages > 32 else { throw Failure(description: "database too small to damage: \(size) bytes") }
        guard let handle = FileHandle(forUpdatingAtPath: path) else {
            throw Failure(description: "cannot open \(path) for writing")
        }
        try handle.seek(toOffset: UInt64(pages / 2 * pageSize))
        try handle.write(contentsOf: Data(repeating: 0xFF, count: (pages - 1 - pages / 2) * pageSize))
        try handle.close()
    }
}
