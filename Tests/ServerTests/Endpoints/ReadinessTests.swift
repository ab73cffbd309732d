import Foundation
import HTTP
import JSON
import Storage
import StorageSQLite
import Synchronization
import TestSupport
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

/// A store that reads but cannot write, as SQLite answers on a read-only file (SQLITE_READONLY), a full disk
/// (SQLITE_FULL) or an I/O error: `.io`. Counts the writes attempted.
final class ReadOnlyStore: Store {
    let base = MemoryStore()
    let writes = Atomic<Int>(0)

    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) throws -> T) async throws -> T {
        try await base.read(body)
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreWriter) throws -> T) async throws -> T {
        writes.add(1, ordering: .relaxed)
        throw StorageError(.io, "attempt to write a readonly database (8)")
    }

    func close() async { await base.close() }
}

/// A SQLite database with enough pages to damage, in a fresh directory.
enum DamagedDatabase {
    /// Creates `directory`'s database with a few thousand rows, closed (the WAL copied into the file).
    static func create(in directory: String) async throws {
        let store = try await SQLiteStore.open(SQLiteConfiguration(directory: directory, synchronous: .normal))
        try await DamagedDatabaseFile.fill(store)
        await store.close()
    }

    /// Damages the security events' pages of `directory`'s database (`DamagedDatabaseFile.damage`).
    static func damage(in directory: String) throws {
        try DamagedDatabaseFile.damage((directory as NSString).appendingPathComponent("passkeyd.sqlite"))
    }

    /// The bytes of the database file and its WAL.
    static func contents(in directory: String) -> [Data?] {
        ["passkeyd.sqlite", "passkeyd.sqlite-wal"].map {
            FileManager.default.contents(atPath: (directory as NSString).appendingPathComponent($0))
        }
    }
}

/// `chattr +i`: a file that no process, root included, may write, where the file system and the capabilities allow
/// it (a read-only file for a server running as root, as the test suite does here).
enum ImmutableFile {
    /// Sets or clears the immutable attribute; whether `chattr` succeeded.
    @discardableResult
    static func set(_ path: String, immutable: Bool) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        process.arguments = [immutable ? "+i" : "-i", path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// Whether `chattr +i` works here.
    static let isSupported: Bool = {
        let path = (NSTemporaryDirectory() as NSString).appendingPathComponent("passkeyd-chattr-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: path, contents: Data()) else { return false }
        defer { try? FileManager.default.removeItem(atPath: path) }
        guard set(path, immutable: true) else { return false }
        return set(path, immutable: false)
    }()
}

@Suite("Readiness reflects writability; a damaged database is reported and never written further")
struct ReadinessTests {
    @Test(
        "with a read-only database file the server starts, its writes are refused with 503, and /readyz says 503 unavailable",
        .enabled(if: ImmutableFile.isSupported, "needs chattr +i"))
    func readOnlyFile() async throws {
        let directory = URL(fileURLWithPath: Self.temporaryDirectory())
        let file = directory.appendingPathComponent("passkeyd.sqlite").path
        defer {
            ImmutableFile.set(file, immutable: false)
            try? FileManager.default.removeItem(at: directory)
        }
        await (try await LiveServer.startForPasskeys(directory: directory)).stopKeepingData()
        try #require(ImmutableFile.set(file, immutable: true))
        let server = try await LiveServer.startForPasskeys(directory: directory)
        let ready = try await server.send("GET", "/readyz")
        #expect(ready.status == 503)
        #expect(String(decoding: ready.body, as: UTF8.self).contains(#""status":"unavailable""#))
        // SQLITE_READONLY: refused before anything was written.
        // A sign-up: its register reads, its grant writes (the session spent, the user stored).
        var authenticator = Passkey()
        let (options, session) = try await server.registerChallenge(email: "read-only@example.com")
        #expect(try await server.token(session: session, response: authenticator.register(options)).status == 503)
        await server.stopKeepingData()
    }

    static func temporaryDirectory() -> String {
        (NSTemporaryDirectory() as NSString).appendingPathComponent("passkeyd-ready-\(UUID().uuidString)")
    }

    @Test("/readyz is 503 `unavailable` when the store reads but cannot write (a read-only file, a full disk)")
    func unwritableStore() async throws {
        let store = ReadOnlyStore()
        let context = ServerContext(
            configuration: try TestConfiguration.make(), store: store, logger: Logger(sink: { _ in }))
        let response = await TestClient(responder: Application(context: context)).get("/readyz")
        #expect(response.status == 503)
        #expect(response.bodyText.contains(#""status":"unavailable""#), "\(response.bodyText)")
        #expect(response.headers["Retry-After"] == "1")
        #expect(response.bodyText.contains("temporarily_unavailable"))
        #expect(try JSONValue(parsing: response.body) != .null)
    }

    @Test("the readiness heartbeat is written at most once a second; a healthy store answers ready")
    func heartbeatCached() async throws {
        let store = ReadOnlyStore()
        let context = ServerContext(
            configuration: try TestConfiguration.make(), store: store, logger: Logger(sink: { _ in }))
        let client = TestClient(responder: Application(context: context))
        let started = ContinuousClock.now
        for _ in 0..<5 { #expect(await client.get("/readyz").status == 503) }
        let elapsed = ContinuousClock.now - started
        // Five requests in a row take milliseconds: one write. A loaded machine may stretch them over seconds,
        // and then one write a second is still the most there may be.
        let allowed = 1 + Int(elapsed.components.seconds)
        #expect((1...allowed).contains(store.writes.load(ordering: .relaxed)), "over \(elapsed)")
        let written = store.writes.load(ordering: .relaxed)
        try await Task.sleep(for: .milliseconds(1_100))
        _ = await client.get("/readyz")
        #expect(store.writes.load(ordering: .relaxed) == written + 1)

        let memory = MemoryStore()
        let healthy = TestClient(
            responder: Application(
                context: ServerContext(
                    configuration: try TestConfiguration.make(), store: memory)))
        let ready = await healthy.get("/readyz")
        #expect(ready.status == 200)
        #expect(ready.bodyText == #"{"status":"ready"}"#)
        #expect(try await memory.read { try $0.lastHeartbeat() } != nil)
    }

    @Test("a database damaged at start is refused with one line naming the file")
    func damagedAtStart() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await DamagedDatabase.create(in: directory)
        try DamagedDatabase.damage(in: directory)
        let configuration = try TestConfiguration.make([
            "PASSKEYD_LISTEN_PORT": "0", "PASSKEYD_DATA_DIRECTORY": directory,
        ])
        do {
            let running = try await PasskeydServer.start(configuration: configuration, logger: Logger(sink: { _ in }))
            await running.stop()
            Issue.record("a damaged database was opened")
        } catch let error as PasskeydServer.StartError {
            let file = (directory as NSString).appendingPathComponent("passkeyd.sqlite")
            #expect(error.description.hasPrefix("the database file \(file) is damaged"), "\(error)")
            #expect(error.description.contains("PRAGMA quick_check"), "damage found by the open's own check: \(error)")
            #expect(error.description.contains("restore it from a backup"))
            #expect(!error.description.contains("\n"))
        }
    }

    @Test(
        "damage met in service: every later write is refused with 503 without touching the file, /readyz says damaged")
    func damagedInService() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await DamagedDatabase.create(in: directory)
        // The smallest page cache, so that the pages read after the damage come from the file.
        let store = try await SQLiteStore.open(
            SQLiteConfiguration(directory: directory, synchronous: .normal, readerCount: 1, cacheKibibytes: 64))
        let context = ServerContext(
            configuration: try TestConfiguration.make(PasskeyHarness.overrides), store: store,
            logger: Logger(sink: { _ in }))
        let client = TestClient(responder: Application(context: context))
        #expect(await client.get("/readyz").status == 200)
        try DamagedDatabase.damage(in: directory)
        await #expect(throws: StorageError(.corrupt, "")) {
            try await store.read { try $0.securityEvents(after: 0, limit: 10_000) }
        }
        let before = DamagedDatabase.contents(in: directory)
        // This write's own pages are intact: it is refused because the damage was met, not by meeting it.
        let write = await client.post("/oauth/revoke", json: RevokeRequest.body())
        #expect(write.status == 503, "\(write.bodyText)")
        #expect(write.bodyText.contains("temporarily_unavailable"))
        await #expect(throws: StorageError(.corrupt, "")) {
            try await store.write { try $0.recordHeartbeat(at: Date()) }
        }
        try await Task.sleep(for: .milliseconds(1_100))  // past the cached readiness answer
        let ready = await client.get("/readyz")
        #expect(ready.status == 503)
        #expect(ready.bodyText.contains(#""status":"damaged""#), "\(ready.bodyText)")
        #expect(DamagedDatabase.contents(in: directory) == before, "the damaged file was written")
        #expect(store.damage != nil)
        await store.close()
    }
}
