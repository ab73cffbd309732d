import Crypto
import Foundation
import Storage
import StoragePostgres
import Synchronization
import TestSupport
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite(
    "A database that answers slowly: requests queued for a connection, and one whose statement waits, get their 503 at the deadline",
    .serialized,
    .enabled(
        if: Cluster.databaseURL != nil,
        "PASSKEYD_TEST_DATABASE_URL is not set: this test needs PostgreSQL (`make test` starts one)"))
struct SlowDatabaseDeadlineTests {
    /// Another session holds `refresh_tokens` locked: a revocation's write waits for it on the node's only
    /// connection, and the revocations behind it wait for that connection. None may hang past the 2 s request
    /// deadline, and none may be written: the queued ones were never begun, so the deadline answers them; the begun
    /// one's statement is bounded by the same deadline (`statement_timeout`), so it fails then and rolls back.
    @Test("revocations behind a lock: every one 503 at its deadline while the lock is held, none kept")
    func writesMeetTheDeadline() async throws {
        var environment = PasskeyHarness.overrides
        environment["PASSKEYD_HTTP_REQUEST_DEADLINE_SECONDS"] = "2"
        let cluster = try await Cluster.start(nodes: 1, environment: environment, poolSize: 1)
        let node = cluster.nodes[0]
        var lockHolder = cluster.database
        lockHolder.poolSize = 1
        lockHolder.applicationName = "passkeyd-tests-lock-holder"
        let locker = try await PostgresStore.open(lockHolder)
        // A family of `app`'s to revoke, stored directly (no request under the 2 s deadline before the lock): were
        // any revocation written, its token would be revoked.
        let bytes = try SecureRandom.bytes(count: 32)
        let refreshToken = Base64URL.encode(bytes)
        let now = Date()
        try await locker.write { writer in
            try writer.insertRefreshToken(
                RefreshToken(
                    tokenHash: Digest.sha256(bytes), familyID: "family-locked", clientID: "app", userID: "user-locked",
                    scope: "openid offline_access", authTime: now, createdAt: now,
                    absoluteExpiresAt: now.addingTimeInterval(86_400), idleExpiresAt: now.addingTimeInterval(86_400)))
        }
        // The transaction stays open on the locker's only connection until its COMMIT below.
        try await locker.executeForTesting("BEGIN; LOCK TABLE refresh_tokens IN ACCESS EXCLUSIVE MODE")
        let progress = Progress()
        let port = node.running.port
        let all = try await withThrowingTaskGroup(of: (status: Int, whileLocked: Bool).self) { group in
            for _ in 0..<3 {
                group.addTask {
                    let status = try await RequestCommitmentTests.revoke(port: port, token: refreshToken).status
                    let whileLocked = !progress.released.load(ordering: .acquiring)
                    progress.answered.add(1, ordering: .releasing)
                    return (status, whileLocked)
                }
            }
            // All three are answered at their deadline; without it they would wait for the lock.
            let start = ContinuousClock.now
            while progress.answered.load(ordering: .acquiring) < 3, ContinuousClock.now - start < .seconds(15) {
                try await Task.sleep(for: .milliseconds(50))
            }
            progress.released.store(true, ordering: .releasing)
            try await locker.executeForTesting("COMMIT")
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(all.filter { $0.status == 503 && $0.whileLocked }.count == 3, "\(all)")
        // No revocation was written, and the node serves again once the lock is gone.
        let kept = try await locker.read { try $0.refreshToken(hash: Digest.sha256(bytes)) }
        #expect(kept != nil && kept?.revokedAt == nil, "a revocation was written: \(String(describing: kept))")
        // The node serves again: wait for that event rather than for one request to beat the 2 s deadline, which a
        // loaded machine may miss (a 503 is the deadline's answer; revocation is idempotent, RFC 7009 §2.2).
        var after = try await RequestCommitmentTests.revoke(port: port, token: refreshToken).status
        let retryStart = ContinuousClock.now
        while after == 503, ContinuousClock.now - retryStart < .seconds(60) {
            after = try await RequestCommitmentTests.revoke(port: port, token: refreshToken).status
        }
        #expect(after == 200, "the revocation after the lock answered \(after)")
        #expect(try await locker.read { try $0.refreshToken(hash: Digest.sha256(bytes)) }?.revokedAt != nil)
        await locker.close()
        await cluster.stop()
    }

    /// Whether the lock was released, and how many revocations were answered, shared with the requests' tasks.
    final class Progress: Sendable {
        let released = Atomic<Bool>(false)
        let answered = Atomic<Int>(0)
    }
}
