import Foundation
import HTTP
import JSON
import Storage
import Synchronization
import TestSupport
import Testing

@testable import Endpoints
@testable import Service

/// A store that reads but whose every write fails with `code`: `.busy` as a PostgreSQL that is unreachable (or
/// SQLite locked past its busy timeout) answers, `.io` as a full disk or a COMMIT whose outcome is unknown does.
final class FailingWriteStore: Store {
    let base = MemoryStore()
    let code: StorageError.Code

    init(_ code: StorageError.Code) { self.code = code }

    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) throws -> T) async throws -> T {
        try await base.read(body)
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreWriter) throws -> T) async throws -> T {
        throw StorageError(code, "write refused by the test store")
    }

    func close() async { await base.close() }
}

@Suite("A database that is down: 503 with Retry-After; a documented failure is not logged as a bug")
struct UnavailableStoreTests {
    /// Log lines, collected.
    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
    }

    static func client(_ code: StorageError.Code, lines: Lines) throws -> TestClient {
        let context = ServerContext(
            configuration: try TestConfiguration.make(), store: FailingWriteStore(code),
            logger: Logger(sink: { line in lines.lines.withLock { $0.append(line) } }))
        return TestClient(responder: Application(context: context))
    }

    @Test("a write refused because the database is unavailable is 503 temporarily_unavailable with Retry-After")
    func databaseDown() async throws {
        let lines = Lines()
        let response = try await Self.client(.busy, lines: lines).post("/oauth/revoke", json: RevokeRequest.body())
        #expect(response.status == 503, "\(response.bodyText)")
        #expect(response.bodyText.contains("temporarily_unavailable"))
        #expect(response.headers["Retry-After"] == "1")
        #expect(!lines.all.contains { $0.contains("bug?") }, "\(lines.all)")
    }

    @Test("an I/O failure (disk full, outcome unknown) stays 500, logged as a warning that says what it is")
    func documentedFailureNotABug() async throws {
        let lines = Lines()
        let response = try await Self.client(.io, lines: lines).post("/oauth/revoke", json: RevokeRequest.body())
        #expect(response.status == 500, "\(response.bodyText)")
        #expect(response.headers["Retry-After"] == nil)
        let failed = lines.all.filter { $0.contains("storage_io") }
        try #require(failed.count == 1, "\(lines.all)")
        #expect(!failed[0].contains("bug?"))
        #expect(failed[0].contains("outcome is unknown"))
        #expect(failed[0].lowercased().contains("warn"), "\(failed[0])")
    }

    @Test("an unrecognised error is still logged as a bug, at error level")
    func bugStaysABug() {
        #expect(ErrorMapping.logMessage(.bug("x")) == "request failed (bug?)")
        #expect(ErrorMapping.logMessage(.mapping(StorageError(.closed, "x"))) == "request failed: the store is closed")
        #expect(ErrorMapping.logMessage(.mapping(StorageError(.busy, "x"))) == "request refused")
    }
}
