import Foundation
import Storage

/// How `SQLiteStore` opens its database.
public struct SQLiteConfiguration: Sendable, Hashable {
    /// SQLite's `PRAGMA synchronous` level for the WAL journal (`Storage.SQLiteSynchronous`, the configuration's
    /// `database.synchronous` too).
    public typealias Synchronous = SQLiteSynchronous

    /// The directory holding the database; created with mode 0700 if missing.
    public var directory: String
    /// The database file name inside `directory`; created with mode 0600 on first open.
    public var fileName: String
    /// Durability level; `.full` by default (see `Synchronous`).
    public var synchronous: Synchronous
    /// How long a connection waits for a lock held by another process before `.busy`.
    public var busyTimeoutMilliseconds: Int
    /// Reader connections (WAL lets them read while the writer writes).
    public var readerCount: Int
    /// Most write bodies committed together in one group commit.
    public var maxBatchSize: Int
    /// Page cache of each connection, in KiB (SQLite's default is 2,048).
    public var cacheKibibytes: Int

    /// Creates a configuration; every option but the directory has a default.
    public init(
        directory: String, fileName: String = "passkeyd.sqlite", synchronous: Synchronous = .full,
        busyTimeoutMilliseconds: Int = 5_000, readerCount: Int = 4, maxBatchSize: Int = 64,
        cacheKibibytes: Int = 32_768
    ) {
        self.directory = directory
        self.fileName = fileName
        self.synchronous = synchronous
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        self.readerCount = readerCount
        self.maxBatchSize = maxBatchSize
        self.cacheKibibytes = cacheKibibytes
    }

    /// The database file's path.
    public var path: String { (directory as NSString).appendingPathComponent(fileName) }

    /// Checks every option. - Throws: `.invalidConfiguration` naming the bad option.
    public func validate() throws(StorageError) {
        guard !directory.isEmpty else { throw StorageError(.invalidConfiguration, "database directory is empty") }
        guard !fileName.isEmpty, !fileName.contains("/"), fileName != ".", fileName != ".." else {
            throw StorageError(.invalidConfiguration, "database file name \"\(fileName)\" is not a plain file name")
        }
        guard (0...600_000).contains(busyTimeoutMilliseconds) else {
            throw StorageError(.invalidConfiguration, "busy timeout \(busyTimeoutMilliseconds) ms is out of range")
        }
        guard (1...64).contains(readerCount) else {
            throw StorageError(.invalidConfiguration, "reader count \(readerCount) is not in 1...64")
        }
        guard (1...1_024).contains(maxBatchSize) else {
            throw StorageError(.invalidConfiguration, "batch size \(maxBatchSize) is not in 1...1024")
        }
        guard (64...4_194_304).contains(cacheKibibytes) else {
            throw StorageError(.invalidConfiguration, "page cache of \(cacheKibibytes) KiB is not in 64...4194304")
        }
    }
}
