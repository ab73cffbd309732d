import Foundation
import Storage
import Synchronization
import Testing

@testable import StoragePostgres

@Suite("After a failed connection attempt, the store's other connections fail at once, then one probes at a time")
struct ConnectGateTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("healthy: every connection attempts; after a failure: refused for the pause, then one probe at a time")
    func decisions() {
        let gate = ConnectGate()
        #expect(gate.decide(now: Self.start, probeLimit: 5) == .attempt)
        #expect(gate.decide(now: Self.start, probeLimit: 5) == .attempt)  // no failure yet: no limit on attempts
        gate.failed(at: Self.start)
        let reopens = Self.start.addingTimeInterval(gate.pause)
        #expect(gate.decide(now: Self.start.addingTimeInterval(0.5), probeLimit: 5) == .refuse(until: reopens))
        // The pause is over: one connection probes; the others are refused while it may still be trying.
        #expect(gate.decide(now: reopens, probeLimit: 5) == .attempt)
        #expect(
            gate.decide(now: reopens.addingTimeInterval(1), probeLimit: 5)
                == .refuse(until: reopens.addingTimeInterval(5)))
        // A probe that never reports (its thread is stuck) does not close the gate for good.
        #expect(gate.decide(now: reopens.addingTimeInterval(5), probeLimit: 5) == .attempt)
        gate.succeeded()
        #expect(gate.decide(now: reopens.addingTimeInterval(5.1), probeLimit: 5) == .attempt)
        #expect(gate.decide(now: reopens.addingTimeInterval(5.1), probeLimit: 5) == .attempt)
    }

    @Test("the time one attempt may take: connect_timeout (at least libpq's 2 s) for each host, plus a second")
    func attemptLimit() throws {
        #expect(try PostgresConfiguration(url: "postgres://app@db/auth?connect_timeout=5").connectAttemptLimit == 6)
        #expect(
            try PostgresConfiguration(url: "postgres://app@db1,db2/auth?connect_timeout=5").connectAttemptLimit == 11)
        #expect(try PostgresConfiguration(url: "postgres://app@db/auth?connect_timeout=1").connectAttemptLimit == 3)
    }

    /// A TCP listener on loopback that completes handshakes (the kernel's backlog) but never accepts, so never
    /// answers PostgreSQL's startup message: a server that hangs, or a host partitioned away after the handshake.
    static func silentListener() throws -> (descriptor: Int32, port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && listen(descriptor, 64) == 0
                    && getsockname(descriptor, pointer, &length) == 0
            }
        }
        try #require(bound)
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    @Test("a server that never answers: the requests queued behind the first attempts fail without trying")
    func silentServer() async throws {
        let listener = try Self.silentListener()
        defer { close(listener.descriptor) }
        var configuration = try PostgresConfiguration(
            url: "postgres://app@127.0.0.1:\(listener.port)/auth?sslmode=disable&connect_timeout=2&pool_size=2")
        configuration.applicationName = "passkeyd-silent"
        // A pause longer than the test, so that however late the queued requests are scheduled (the full suite
        // keeps every thread busy), none of them may probe: the count of attempts does not depend on the clock.
        let pool = PostgresPool(configuration: configuration, gate: ConnectGate(pause: 3_600))
        let outcomes = await withTaskGroup(of: StorageError?.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    do {
                        try await pool.withConnection { try $0.connectIfNeeded() }
                        return nil
                    } catch {
                        return error as? StorageError
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        await pool.close()
        #expect(outcomes.count == 8 && outcomes.allSatisfy { $0?.code == .busy }, "\(outcomes)")
        // At most the pool's two connections tried (each waiting connect_timeout) before the first failure was
        // known; without the gate all eight would have, one after another, two at a time (8 s).
        let attempts = pool.counters.connectFailures.load(ordering: .relaxed)
        #expect((1...2).contains(attempts), "\(attempts) attempts")
    }
}
