import Foundation
import JSON
import SoftwareClient
import Storage
import StoragePostgres
import TestSupport
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

/// Issue 35: nodes on one PostgreSQL database share the sealed auth sessions' key (a server secret the first node
/// stored) and the spent sessions' table, so a session is used once across them.
@Suite(
    "Sealed auth sessions across nodes on one PostgreSQL", .serialized,
    .enabled(
        if: Cluster.databaseURL != nil,
        "PASSKEYD_TEST_DATABASE_URL is not set: the multi-node tests need PostgreSQL (`make test` starts one)"))
struct SealedSessionMultiNodeTests {
    @Test("a session sealed by one node opens on the others, and a node refuses what another node spent")
    func spentAcrossNodes() async throws {
        let cluster = try await Cluster.start()
        var authenticator = Passkey()
        _ = try await cluster.nodes[0].signUp(&authenticator, email: "sealed@example.com")
        // Spent by a success on node 2: refused on nodes 1 and 3, with a good assertion too.
        let (options, session) = try await cluster.nodes[0].loginChallenge()
        let assertion = try authenticator.assert(options)
        #expect(try await cluster.nodes[1].token(session: session, response: assertion).status == 200)
        for node in [cluster.nodes[0], cluster.nodes[2]] {
            let replayed = try await node.token(session: session, response: try authenticator.assert(options))
            #expect(replayed.status == 403)
            #expect(replayed.body["error_description"]?.stringValue == "Invalid or expired auth_session.")
        }
        // Spent by a refusal on node 3: a good assertion on node 1 is refused.
        let (again, refusedSession) = try await cluster.nodes[1].loginChallenge()
        let bad = try authenticator.assert(again, CeremonyTampering(corruptsSignature: true))
        #expect(try await cluster.nodes[2].token(session: refusedSession, response: bad).status == 403)
        let late = try await cluster.nodes[0].token(session: refusedSession, response: try authenticator.assert(again))
        #expect(late.status == 403)
        #expect(late.body["error_description"]?.stringValue == "Invalid or expired auth_session.")
        // One key for all: the first node stored it, the others loaded it.
        let store = try await PostgresStore.open(cluster.database)
        #expect(try await store.read { try $0.serverSecret(name: AuthSessionKey.secretName) } != nil)
        await store.close()
        await cluster.stop()
    }

    @Test("16 concurrent presentations of one session spread over three nodes: exactly one 200")
    func raceAcrossNodes() async throws {
        let cluster = try await Cluster.start()
        var authenticator = Passkey()
        _ = try await cluster.nodes[0].signUp(&authenticator, email: "race-sealed@example.com")
        let (options, session) = try await cluster.nodes[0].loginChallenge()
        let assertion = try authenticator.assert(options)
        let nodes = cluster.nodes
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<16 {
                group.addTask {
                    try await nodes[index % nodes.count].token(session: session, response: assertion).status
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses)")
        #expect(statuses.filter { $0 == 403 }.count == 15, "\(statuses)")
        await cluster.stop()
    }
}
