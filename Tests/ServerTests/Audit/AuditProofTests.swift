import Audit
import Foundation
import HTTP
import JSON
import Storage
import StoragePostgres
import StorageSQLite
import Synchronization
import TestSupport
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

/// The proof endpoints read O(log n) stored node hashes, never the whole log, and answer what the in-memory proofs
/// over every leaf answer; a database upgraded from v9 (leaves, no nodes) gets its nodes backfilled.
@Suite("Audit proofs from stored node hashes")
struct AuditProofTests {
    @Test("inclusion and consistency proofs served from stored nodes equal the in-memory proofs, and verify")
    func proofsFromNodes() async throws {
        let context = try AuditLogTests.context()
        let admin = TestClient(responder: AdminApplication(context: context, auditSigner: nil))
        // Batches of 5: nodes completed across batches come from the stored frontier.
        try await AuditLogTests.record(37, in: context)
        while try await AuditSequencer.sequenceBatch(store: context.store, limit: 5) > 0 {}
        let leaves = try await context.store.read { try $0.auditLeaves(start: 0, end: 37) }.map(\.leafHash)
        for size in 1...37 {
            let tree = Array(leaves[..<size])
            let root = MerkleTree.root(tree)
            for index in 0..<size {
                let proof = try await Self.proof(admin, "/audit/proof/inclusion?index=\(index)&tree_size=\(size)")
                #expect(proof == (try MerkleTree.inclusionProof(index: index, leaves: tree)), "\(index) in \(size)")
                #expect(
                    MerkleTree.verifyInclusion(
                        leafHash: tree[index], index: index, treeSize: size, proof: proof, root: root))
            }
            for first in 1...size {
                let proof = try await Self.proof(admin, "/audit/proof/consistency?first=\(first)&second=\(size)")
                #expect(proof == (try MerkleTree.consistencyProof(first: first, leaves: tree)), "\(first) of \(size)")
                #expect(
                    MerkleTree.verifyConsistency(
                        firstSize: first, secondSize: size, firstRoot: MerkleTree.root(Array(tree[..<first])),
                        secondRoot: root, proof: proof))
            }
        }
        #expect(await admin.get("/audit/proof/inclusion?index=0&tree_size=38").status == 400)
        #expect(await admin.get("/audit/proof/inclusion?index=5&tree_size=5").status == 400)
        #expect(await admin.get("/audit/proof/consistency?first=6&second=5").status == 400)
        #expect(await admin.get("/audit/proof/consistency?first=1&second=38").status == 400)
    }

    @Test("a proof reads no leaf and its node hashes in one query")
    func proofReadsNoLeaves() async throws {
        let store = CountingAuditStore()
        let context = ServerContext(
            configuration: try TestConfiguration.make(), store: store, logger: Logger(sink: { _ in }))
        try await AuditLogTests.record(300, in: context)
        _ = try await AuditSequencer.drain(store: store)
        let admin = TestClient(responder: AdminApplication(context: context, auditSigner: nil))
        store.calls.withLock { $0 = AuditReadCalls() }
        #expect(await admin.get("/audit/proof/inclusion?index=123&tree_size=300").status == 200)
        #expect(await admin.get("/audit/proof/consistency?first=77&second=300").status == 200)
        let calls = store.calls.withLock { $0 }
        #expect(calls.leafRanges.isEmpty, "\(calls.leafRanges)")
        #expect(calls.nodeReads.count == 2, "one node read per proof")
        // O(log n): at most two ids per level.
        #expect(calls.nodeReads.allSatisfy { $0 <= 2 * 9 }, "\(calls.nodeReads)")
        // Every leaf has its nodes: the backfill's tick is a read, no write.
        #expect(try await AuditNodeBackfiller.backfillBatch(store: store))
        #expect(store.calls.withLock { $0.writes } == 0)
    }

    @Test("a SQLite log from schema v9 is backfilled batch by batch: proofs are right before, during and after")
    func upgradeFromV9OnSQLite() async throws {
        let directory = (NSTemporaryDirectory() as NSString).appendingPathComponent("passkeyd-proofs-\(UUID())")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let configuration = SQLiteConfiguration(directory: directory, readerCount: 1)
        try await Self.checkUpgrade(
            old: try await SQLiteStore.open(configuration, migrations: Array(SQLiteSchema.migrations.prefix(9))),
            new: { try await SQLiteStore.open(configuration) })
    }

    @Test(
        "a PostgreSQL log from schema v9 is backfilled batch by batch: proofs are right before, during and after",
        .enabled(
            if: Cluster.databaseURL != nil,
            "PASSKEYD_TEST_DATABASE_URL is not set: this test needs PostgreSQL (`make test` starts one)"))
    func upgradeFromV9OnPostgreSQL() async throws {
        let base = try #require(Cluster.databaseURL)
        let schema = "proofs_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let configuration = try PostgresConfiguration(
            base + (base.contains("?") ? "&" : "?") + "schema=\(schema)", environment: [:])
        do {
            try await Self.checkUpgrade(
                old: try await PostgresStore.open(
                    configuration, migrations: Array(PostgresSchema.migrations.prefix(9))),
                new: { try await PostgresStore.open(configuration) })
        } catch {
            await PostgresStore.dropSchemaForTesting(configuration)
            throw error
        }
        await PostgresStore.dropSchemaForTesting(configuration)
    }

    /// `old`, a store at schema v9, gets 150 leaves and no nodes, as the sequencer of that version left them; the
    /// store `new` opens migrates it, sequences 30 more events, and is backfilled 40 leaves at a time; then the
    /// sequencer stores nodes with its leaves again.
    static func checkUpgrade(old: any Store, new: () async throws -> any Store) async throws {
        var frontier = TreeFrontier()
        var leaves: [AuditLeaf] = []
        for index in 0..<150 {
            let entry = Array("entry \(index)".utf8)
            leaves.append(AuditLeaf(index: Int64(index), entry: entry, leafHash: MerkleHash.leaf(entry)))
            frontier.append(leafHash: leaves[index].leafHash)
        }
        let tree = AuditTreeState(size: frontier.size, frontier: frontier.serialized)
        try await old.write { [leaves] in
            try $0.appendAuditLeaves(leaves, from: AuditTreeState(), tree: tree)
        }
        await old.close()

        let store = try await new()
        #expect(try await store.read { try $0.auditNodeSize() } == 0)
        let context = ServerContext(
            configuration: try TestConfiguration.make(), store: store, logger: Logger(sink: { _ in }))
        let admin = TestClient(responder: AdminApplication(context: context, auditSigner: nil))
        // Events sequenced before the backfill caught up wait for it too.
        try await AuditLogTests.record(30, in: context)
        _ = try await AuditSequencer.drain(store: store)
        let hashes = try await store.read { try $0.auditLeaves(start: 0, end: 180) }.map(\.leafHash)
        #expect(hashes.count == 180)
        #expect(try await store.read { try $0.auditNodeSize() } == 0)

        func expectProofs(_ stage: String) async throws {
            for (index, size) in [(0, 1), (5, 150), (149, 150), (120, 160), (179, 180), (64, 128)] {
                let proof = try await Self.proof(admin, "/audit/proof/inclusion?index=\(index)&tree_size=\(size)")
                let expected = try MerkleTree.inclusionProof(index: index, leaves: Array(hashes[..<size]))
                #expect(proof == expected, "\(stage): \(index) in \(size)")
            }
            for (first, second) in [(1, 180), (150, 180), (77, 150), (128, 129), (3, 7)] {
                let proof = try await Self.proof(admin, "/audit/proof/consistency?first=\(first)&second=\(second)")
                let expected = try MerkleTree.consistencyProof(first: first, leaves: Array(hashes[..<second]))
                #expect(proof == expected, "\(stage): \(first) of \(second)")
            }
        }
        try await expectProofs("before the backfill")
        var steps = 0
        while !(try await AuditNodeBackfiller.backfillBatch(store: store, limit: 40)) {
            steps += 1
            try await expectProofs("after \(steps) backfill steps")
        }
        #expect(steps == 4, "180 leaves in batches of 40")
        #expect(try await store.read { try $0.auditNodeSize() } == 180)
        #expect(try await AuditNodeBackfiller.backfillBatch(store: store), "nothing left")
        try await expectProofs("after the backfill")
        // Caught up, the sequencer stores the nodes with the leaves again.
        try await AuditLogTests.record(12, in: context, from: 30)
        _ = try await AuditSequencer.drain(store: store)
        #expect(try await store.read { try $0.auditNodeSize() } == 192)

        // Every complete subtree of the 192 leaves is stored, with its MTH.
        let all = try await store.read { try $0.auditLeaves(start: 0, end: 192) }.map(\.leafHash)
        var expected: [AuditNodeID: [UInt8]] = [:]
        for level in 1...7 {
            for index in 0..<(192 >> level) {
                let id = MerkleNodeID(level: level, index: Int64(index))
                let covered = Int(id.leaves.lowerBound)..<Int(id.leaves.upperBound)
                expected[AuditNodeID(id)] = MerkleTree.root(all[covered])
            }
        }
        let ids = Array(expected.keys)
        #expect(try await store.read { try $0.auditNodes(ids) } == expected)

        // Leaves appended without nodes (an older binary's sequencer during a rolling upgrade) hold the sequencer's
        // nodes back until the backfill has caught up again; proofs stay right meanwhile.
        try await store.write { writer in
            guard let from = try writer.lockAuditTree() else { throw StorageError(.internalFailure, "no lock") }
            var frontier = try TreeFrontier(size: from.size, serialized: from.frontier)
            let entry = Array("older binary".utf8)
            frontier.append(leafHash: MerkleHash.leaf(entry))
            try writer.appendAuditLeaves(
                [AuditLeaf(index: from.size, entry: entry, leafHash: MerkleHash.leaf(entry))], from: from,
                tree: AuditTreeState(size: frontier.size, frontier: frontier.serialized))
        }
        try await AuditLogTests.record(3, in: context, from: 42)
        _ = try await AuditSequencer.drain(store: store)
        #expect(try await store.read { try $0.auditNodeSize() } == 192)
        let later = try await store.read { try $0.auditLeaves(start: 0, end: 196) }.map(\.leafHash)
        let before = try await Self.proof(admin, "/audit/proof/inclusion?index=192&tree_size=196")
        #expect(before == (try MerkleTree.inclusionProof(index: 192, leaves: later)))
        #expect(try await AuditNodeBackfiller.backfillBatch(store: store))
        #expect(try await store.read { try $0.auditNodeSize() } == 196)
        let after = try await Self.proof(admin, "/audit/proof/inclusion?index=192&tree_size=196")
        #expect(after == before)
        await store.close()
    }

    /// The hashes of a proof response.
    static func proof(_ admin: TestClient, _ path: String) async throws -> [[UInt8]] {
        let response = await admin.get(path)
        guard response.status == 200, case .object(let members) = try JSONValue(parsing: response.body),
            case .array(let hashes)? = members.first(where: { $0.key == "hashes" })?.value
        else {
            Issue.record("\(path): \(response.status) \(String(decoding: response.body, as: UTF8.self))")
            return []
        }
        return hashes.compactMap { $0.stringValue.flatMap { Data(base64Encoded: $0) }.map(Array.init) }
    }
}

/// What the proof endpoints read.
struct AuditReadCalls: Sendable {
    /// Every `auditLeaves` range asked for.
    var leafRanges: [Range<Int64>] = []
    /// The number of ids of each `auditNodes` call.
    var nodeReads: [Int] = []
    /// How many write transactions were made.
    var writes = 0
}

/// A memory store that records the audit-log reads its reads make, and counts its writes.
private final class CountingAuditStore: Store {
    let calls = Mutex(AuditReadCalls())
    private let base = MemoryStore()

    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) throws -> T) async throws -> T {
        try await base.read { reader in try body(CountingAuditReader(base: reader, store: self)) }
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreWriter) throws -> T) async throws -> T {
        calls.withLock { $0.writes += 1 }
        return try await base.write(body)
    }

    func close() async { await base.close() }
}

/// Forwards to the store's reader, recording `auditLeaves` and `auditNodes` calls.
private final class CountingAuditReader: ForwardingStoreReader {
    let store: CountingAuditStore

    init(base: any StoreReader, store: CountingAuditStore) {
        self.store = store
        super.init(base)
    }

    override func auditLeaves(start: Int64, end: Int64) throws(StorageError) -> [AuditLeaf] {
        store.calls.withLock { $0.leafRanges.append(start..<end) }
        return try reader.auditLeaves(start: start, end: end)
    }

    override func auditNodes(_ ids: [AuditNodeID]) throws(StorageError) -> [AuditNodeID: [UInt8]] {
        store.calls.withLock { $0.nodeReads.append(ids.count) }
        return try reader.auditNodes(ids)
    }
}
