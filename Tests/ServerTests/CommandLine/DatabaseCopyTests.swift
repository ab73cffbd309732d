import Foundation
import HTTP
import JSON
import Storage
import StoragePostgres
import StorageSQLite
import TestSupport
import Testing
import Tokens

@testable import Commands
@testable import Configuration
@testable import Endpoints
@testable import Service
@testable import passkeyd

/// `passkeyd database copy`: a node's SQLite database into an empty PostgreSQL schema, then nodes on that schema.
@Suite(
    "database copy: SQLite to PostgreSQL", .serialized,
    .enabled(
        if: Cluster.databaseURL != nil,
        "PASSKEYD_TEST_DATABASE_URL is not set: copying into PostgreSQL needs a server (`make test` starts one)"))
struct DatabaseCopyTests {
    /// A data directory, its node's configuration, and a fresh PostgreSQL schema to copy into.
    struct Move {
        let directory: URL
        let configuration: ServerConfiguration
        let target: String

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("passkeyd-copy-\(UUID())")
            var overrides = PasskeyHarness.overrides
            overrides["PASSKEYD_LISTEN_PORT"] = "0"
            overrides["PASSKEYD_DATA_DIRECTORY"] = directory.path
            overrides["PASSKEYD_HTTP_SHUTDOWN_GRACE_SECONDS"] = "2"
            configuration = try TestConfiguration.make(overrides)
            let base = try #require(Cluster.databaseURL)
            let schema = "copy_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            target = base + (base.contains("?") ? "&" : "?") + "schema=\(schema)"
        }

        func startSQLiteNode() async throws -> LiveServer {
            try await LiveServer.startForPasskeys(directory: directory)
        }

        func startPostgresNode() async throws -> LiveServer {
            var overrides = PasskeyHarness.overrides
            overrides["PASSKEYD_DATABASE_URL"] = target
            return try await LiveServer.start(environment: overrides)
        }

        func postgres() async throws -> PostgresStore { try await PostgresDriver.open(target, poolSize: 2) }

        /// The target's configuration, for what connects to it without opening a store.
        func database() throws -> PostgresConfiguration { try PostgresConfiguration(target, environment: [:]) }

        func end() async {
            if let database = try? PostgresConfiguration(target, environment: [:]) {
                await PostgresStore.dropSchemaForTesting(database)
            }
            try? FileManager.default.removeItem(at: directory)
        }
    }

    /// What a reader sees of everything the test wrote, for comparing two stores record by record.
    static func records(_ store: any Store, userID: String, family: String) async throws -> [String] {
        try await store.read { reader in
            let tree = try reader.auditTree()
            return [
                "\(try reader.users(afterID: nil, limit: 100))",
                "\(try reader.credentials(userID: userID))",
                "\(try reader.refreshTokens(familyID: family))",
                "\(try reader.signingKeys().sorted { $0.kid < $1.kid })",
                "\(try reader.deviceKeys(userID: userID))",
                "\(String(describing: try reader.deviceChallenge(id: "challenge-1")))",
                "\(try reader.securityEvents(after: 0, limit: 1_000))",
                "\(tree)",
                "\(try reader.auditLeaves(start: 0, end: tree.size))",
                "\(try reader.auditNodeSize())",
                "\(String(describing: try reader.latestAuditCheckpoint()))",
                "\(try reader.pendingSecurityEventCount())",
                "\(String(describing: try reader.passwordVerifier(userID: userID)))",
                "\(String(describing: try reader.fallbackCounter(key: "identity:main:moved@example.com")))",
                "\(String(describing: try reader.serverSecret(name: "copy-test")))",
                "\(try reader.recoveryCodes(userID: userID))",
                "\(try reader.isTokenSpent(jwtID: "spent-1"))",
                "\(String(describing: try reader.latestMetadataBLOB()))",
            ]
        }
    }

    static func kids(_ node: LiveServer) async throws -> Set<String> {
        let jwks = try JSONValue(parsing: [UInt8](try await node.send("GET", "/.well-known/jwks.json").body))
        return Set((jwks["keys"]?.arrayValue ?? []).compactMap { $0["kid"]?.stringValue })
    }

    @Test("every table moves value for value, and nodes on PostgreSQL carry on where the SQLite node stopped")
    func moveAndCarryOn() async throws {
        let move = try Move()
        let node = try await move.startSQLiteNode()
        var authenticator = Passkey()
        let signUp = try await node.signUp(&authenticator, email: "moved@example.com")
        let first = try #require(signUp["refresh_token"]?.stringValue)
        let rotated = try await node.refresh(first)
        #expect(rotated.status == 200)
        let newest = try #require(rotated.body["refresh_token"]?.stringValue)
        // A login begun on the SQLite node and finished on a PostgreSQL node.
        let (pendingOptions, pendingSession) = try await node.loginChallenge()
        let kidsBefore = try await Self.kids(node)
        await node.stopKeepingData()

        let sqlite = try await DatabaseDrivers.openStore(move.configuration)
        let user = try await Self.fillTheRest(sqlite)
        let family = try #require(
            try await sqlite.read { try $0.refreshToken(hash: Tokens.RefreshToken(presented: newest).hash)?.familyID })
        let before = try await Self.records(sqlite, userID: user.id, family: family)
        await sqlite.close()

        let lines = try await DatabaseCopyCommand.run(configuration: move.configuration, to: move.target)
        #expect(lines.first?.hasPrefix("copied ") == true)

        let postgres = try await move.postgres()
        let after = try await Self.records(postgres, userID: user.id, family: family)
        for (index, (was, now)) in zip(before, after).enumerated() {
            #expect(was == now, "record group \(index) differs after the copy")
        }
        #expect(try await postgres.read { try $0.pendingSecurityEventCount() } > 0, "the queue moved as a queue")
        let lastSeq = try #require(try await postgres.read { try $0.securityEvents(after: 0, limit: 1_000) }.last?.seq)
        let appended = try await postgres.write {
            try $0.appendSecurityEvent(SecurityEvent(occurredAt: Date(), storedKind: "after_copy", outcome: "success"))
        }
        #expect(appended.seq == lastSeq + 1, "event seqs continue after the copied ones")
        let sequenced = try await AuditSequencer.drain(store: postgres)
        #expect(sequenced > 0)
        await postgres.close()

        let moved = try await move.startPostgresNode()
        #expect(try await Self.kids(moved) == kidsBefore, "the signing keys moved")
        let login = try await moved.token(session: pendingSession, response: authenticator.assert(pendingOptions))
        #expect(login.status == 200, "a login session issued on SQLite is redeemed on PostgreSQL")
        let next = try await moved.refresh(newest)
        #expect(next.status == 200, "the newest refresh token works")
        let reuse = try await moved.refresh(first)
        #expect(reuse.status == 403, "a rotated one is reuse: \(reuse.body)")
        #expect(reuse.body["error"]?.stringValue == "invalid_grant")
        let successor = try #require(next.body["refresh_token"]?.stringValue)
        #expect(try await moved.refresh(successor).status == 403, "the reuse revoked the family it moved with")
        await moved.stop()
        await move.end()
    }

    @Test("a file that is not a passkeyd database is no source")
    func notAPasskeydDatabase() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("passkeyd-empty-\(UUID()).sqlite")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data().write(to: file)  // an empty file is an empty SQLite database
        #expect {
            _ = try SQLiteImageReader(path: file.path)
        } throws: { error in
            (error as? StorageError)?.code == .migration
                && (error as? StorageError)?.reason.contains("not a passkeyd database") == true
        }
    }

    @Test("every table of the schema holds rows in the copy test, and the report counts what each had")
    func everyTableCounted() async throws {
        let move = try Move()
        let node = try await move.startSQLiteNode()
        var authenticator = Passkey()
        // The sign-up spends its sealed session (`spent_auth_sessions`).
        _ = try await node.signUp(&authenticator, email: "moved@example.com")
        await node.stopKeepingData()
        let sqlite = try await DatabaseDrivers.openStore(move.configuration)
        _ = try await Self.fillTheRest(sqlite)
        await sqlite.close()
        let file = try #require(move.configuration.sqliteFile)
        let reader = try SQLiteImageReader(path: file)
        var expected: [String: Int] = [:]
        for table in try reader.tables() {
            var count = 0
            try reader.rows(of: table, batchSize: 100) { count += $0.count }
            expected[table.name] = count
        }
        let lines = try await DatabaseCopyCommand.run(configuration: move.configuration, to: move.target)
        for (table, count) in expected {
            #expect(count > 0, "\(table) has no rows in this test, so its copy is not checked")
            #expect(lines.contains("  \(table): \(count)"), "\(table): \(count) rows reported")
        }
        #expect(expected.count == 26)
        await move.end()
    }

    /// Why copying `configuration`'s database to `target` failed ("" and an issue when it did not).
    static func refusal(_ configuration: ServerConfiguration, to target: String) async -> String {
        await databaseCommandRefusal { () throws(DatabaseCommandFailure) in
            try await DatabaseCopyCommand.run(configuration: configuration, to: target)
        }
    }

    @Test("refusals: a target that holds data, a node running on the directory, no source, a PostgreSQL source")
    func refusals() async throws {
        let move = try Move()
        let node = try await move.startSQLiteNode()
        var authenticator = Passkey()
        _ = try await node.signUp(&authenticator, email: "moved@example.com")
        let running = await Self.refusal(move.configuration, to: move.target)
        #expect(running.contains("in use by another passkeyd"), "\(running)")
        await node.stopKeepingData()

        _ = try await DatabaseCopyCommand.run(configuration: move.configuration, to: move.target)
        let postgres = try await move.postgres()
        let users = try await postgres.read { try $0.users(afterID: nil, limit: 10) }.count
        await postgres.close()
        let second = await Self.refusal(move.configuration, to: move.target)
        #expect(second.contains("already holds data"), "\(second)")
        let again = try await move.postgres()
        #expect(try await again.read { try $0.users(afterID: nil, limit: 10) }.count == users)
        await again.close()

        var missing = move.configuration
        missing.dataDirectory = move.directory.appendingPathComponent("none").path
        let none = await Self.refusal(missing, to: move.target)
        #expect(none.contains("no SQLite database"), "\(none)")
        var onPostgres = move.configuration
        onPostgres.database.url = move.target
        let postgresSource = await Self.refusal(onPostgres, to: move.target)
        #expect(postgresSource.contains("is not SQLite"), "\(postgresSource)")
        let notPostgres = await Self.refusal(move.configuration, to: "sqlite:/tmp/elsewhere.sqlite")
        #expect(notPostgres.contains("--to must be a PostgreSQL connection string"), "\(notPostgres)")
        await move.end()
    }

    /// A source that changes one value, drops one column, or claims another schema version, of a real one.
    final class AlteredSource: StoreImageSource {
        let inner: SQLiteImageReader
        let table: String
        let column: String
        let replacement: StoredValue?
        let version: Int?

        init(
            _ inner: SQLiteImageReader, table: String, column: String, replacement: StoredValue?, version: Int? = nil
        ) {
            self.inner = inner
            self.table = table
            self.column = column
            self.replacement = replacement
            self.version = version
        }

        var schemaVersion: Int { version ?? inner.schemaVersion }
        func marks() throws(StorageError) -> StoreImageMarks { try inner.marks() }
        func tables() throws(StorageError) -> [TableShape] {
            try inner.tables().map { shape in
                guard shape.name == table, replacement == nil else { return shape }
                return TableShape(name: shape.name, columns: shape.columns.filter { $0 != column })
            }
        }
        func rows(of table: TableShape, batchSize: Int, _ body: ([[StoredValue]]) throws(StorageError) -> Void)
            throws(StorageError)
        {
            guard table.name == self.table, let replacement, let index = table.columns.firstIndex(of: column) else {
                return try inner.rows(of: table, batchSize: batchSize, body)
            }
            try inner.rows(of: table, batchSize: batchSize) { (batch) throws(StorageError) in
                try body(
                    batch.map { row in
                        var row = row
                        row[index] = replacement
                        return row
                    })
            }
        }
    }

    @Test(
        "a value that does not fit, a column one side lacks, another schema version, a queued audit row: nothing written"
    )
    func nothingWrittenOnRefusal() async throws {
        let move = try Move()
        let node = try await move.startSQLiteNode()
        var authenticator = Passkey()
        _ = try await node.signUp(&authenticator, email: "moved@example.com")
        await node.stopKeepingData()
        let file = try #require(move.configuration.sqliteFile)
        let database = try move.database()
        let postgres = try await move.postgres()
        let refusals: [(table: String, column: String, value: StoredValue?, code: StorageError.Code, says: String)] = [
            ("credentials", "uv_initialized", .integer(2), .invalidRecord, "credentials.uv_initialized"),
            ("credentials", "sign_count", .text("7"), .invalidRecord, "credentials.sign_count"),
            ("users", "email", .text("a\u{0}b"), .invalidRecord, "users.email"),
            ("refresh_tokens", "scope", nil, .migration, "refresh_tokens has columns"),
            // An `integer` (int4) column takes only what fits 32 bits.
            ("audit_tree", "id", .integer(1 << 40), .invalidRecord, "audit_tree.id"),
        ]
        for refusal in refusals {
            do {
                _ = try await PostgresStore.importImage(into: database) { () throws(StorageError) in
                    AlteredSource(
                        try SQLiteImageReader(path: file), table: refusal.table, column: refusal.column,
                        replacement: refusal.value)
                }
                Issue.record("\(refusal.table).\(refusal.column) was copied")
            } catch {
                #expect(error.code == refusal.code, "\(error)")
                #expect(error.reason.contains(refusal.says), "\(error)")
            }
            // Tables copied before the refusal were rolled back with it.
            #expect(try await postgres.read { try $0.users(afterID: nil, limit: 10) }.isEmpty)
            #expect(try await postgres.read { try $0.signingKeys() }.isEmpty)
        }
        // A source at another schema version is refused before anything is read.
        do {
            _ = try await PostgresStore.importImage(into: database) { () throws(StorageError) in
                AlteredSource(
                    try SQLiteImageReader(path: file), table: "", column: "", replacement: nil,
                    version: (SQLiteSchema.migrations.last?.version ?? 0) - 1)
            }
            Issue.record("a source at an older schema version was copied")
        } catch {
            #expect(error.code == .migration && error.reason.contains("schema version"), "\(error)")
        }
        // A queue row left in the target by hand makes it a target that holds data.
        try await postgres.executeForTesting("INSERT INTO audit_pending (event_seq) VALUES (7)")
        do {
            _ = try await PostgresStore.importImage(into: database) { () throws(StorageError) in
                try SQLiteImageReader(path: file)
            }
            Issue.record("a target with a queued audit row was copied into")
        } catch {
            #expect(error.code == .notEmpty && error.reason.contains("audit_pending"), "\(error)")
        }
        try await postgres.executeForTesting("DELETE FROM audit_pending")
        // The same source unaltered then goes in whole.
        let report = try await PostgresStore.importImage(into: database) { () throws(StorageError) in
            try SQLiteImageReader(path: file)
        }
        #expect(report.rows["users"] == 1)
        await postgres.close()
        await move.end()
    }
}
