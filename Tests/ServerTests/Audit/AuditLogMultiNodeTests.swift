import Audit
import Foundation
import HTTP
import JSON
import Storage
import StoragePostgres
import TestSupport
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite(
    "Audit log on several PostgreSQL nodes", .serialized,
    .enabled(
        if: Cluster.databaseURL != nil,
        "PASSKEYD_TEST_DATABASE_URL is not set: the multi-node tests need PostgreSQL (`make test` starts one)"))
struct AuditLogMultiNodeTests {
    @Test("events recorded on three nodes enter one gap-free log and one tree, whichever node sequences")
    func oneLogAcrossNodes() async throws {
        let cluster = try await Cluster.start()
        for n in 0..<3 {
            var authenticator = Passkey()
            let (options, session) = try await cluster.nodes[n].registerChallenge(email: "audit-\(n)@example.com")
            let signUp = try await cluster.nodes[(n + 1) % 3].token(
                session: session, response: authenticator.register(options))
            #expect(signUp.status == 200)
            let (loginOptions, loginSession) = try await cluster.nodes[(n + 2) % 3].loginChallenge()
            let login = try await cluster.nodes[n].token(
                session: loginSession, response: authenticator.assert(loginOptions))
            #expect(login.status == 200)
        }
        // Three more sequencers racing one event at a time, beside the nodes' own.
        var stores: [PostgresStore] = []
        for _ in 0..<3 { stores.append(try await PostgresStore.open(cluster.database)) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for store in stores {
                for _ in 0..<8 { group.addTask { _ = try await AuditSequencer.sequenceBatch(store: store, limit: 1) } }
            }
            try await group.waitForAll()
        }
        // The nodes' own sequencers run beside these: a drain that finds the tree locked by one of them sequences
        // nothing and returns, so drain until the queue is empty (the event waited for, not a pause).
        let deadline = ContinuousClock.now + .seconds(60)
        while try await stores[0].read({ try $0.pendingSecurityEventCount() }) > 0, ContinuousClock.now < deadline {
            if try await AuditSequencer.drain(store: stores[0]) == 0 { try await Task.sleep(for: .milliseconds(5)) }
        }
        let (events, leaves, tree, pending) = try await stores[0].read { reader in
            (
                try reader.securityEvents(after: 0, limit: 1_000), try reader.auditLeaves(start: 0, end: 1_000),
                try reader.auditTree(), try reader.pendingSecurityEventCount()
            )
        }
        #expect(events.count == 6)
        #expect(pending == 0)
        #expect(leaves.map(\.index) == Array(0..<Int64(events.count)))
        #expect(tree.size == Int64(events.count))
        let frontier = try TreeFrontier(size: tree.size, serialized: tree.frontier)
        #expect(frontier.root == MerkleTree.root(leaves.map { MerkleHash.leaf($0.entry) }))
        let kinds = leaves.compactMap { leaf -> String? in
            guard case .object(let members) = try? JSONValue(parsing: leaf.entry) else { return nil }
            return members.first { $0.key == "event" }?.value.stringValue
        }
        #expect(kinds.sorted() == ["login", "login", "login", "signup", "signup", "signup"])
        for store in stores { await store.close() }
        await cluster.stop()
    }
}
