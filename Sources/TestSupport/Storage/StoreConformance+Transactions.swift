import Foundation
import Storage
import Synchronization

/// An error a body throws on purpose.
struct DeliberateFailure: Error, Equatable {}

extension StoreConformance {
    static let transactionChecks: [Check] = [
        Check("a body that throws keeps nothing it wrote and its error reaches the caller") { store in
            do {
                try await store.write { writer in
                    try writer.insertUser(S.user(1), credential: S.credential(1, userID: "user-1"))
                    try writer.insertAuthSession(S.session("s1"))
                    _ = try writer.appendSecurityEvent(
                        SecurityEvent(occurredAt: S.at(1), storedKind: "x", outcome: "y"))
                    throw DeliberateFailure()
                }
                throw ConformanceFailure(message: "the body's error was swallowed", file: #fileID, line: #line)
            } catch is DeliberateFailure {}
            let left = try await store.read { reader in
                (
                    try reader.user(id: "user-1"), try reader.authSession(id: "s1"),
                    try reader.securityEvents(after: 0, limit: 10)
                )
            }
            try expect(left.0 == nil && left.1 == nil && left.2.isEmpty, "rolled-back writes are visible")
            let next = try await store.write {
                try $0.appendSecurityEvent(SecurityEvent(occurredAt: S.at(2), storedKind: "x", outcome: "y"))
            }
            // Seqs are unique and increasing; PostgreSQL's come from a sequence, which a rollback does not give back.
            // The audit queue (and so the log) holds only what committed.
            try expect(next.seq >= 1, "sequence after a rollback")
            let queued = try await store.write { try $0.takePendingSecurityEvents(limit: 10) }
            try expectEqual(queued.map(\.seq), [next.seq], "audit queue after a rollback")
        },
        Check("a write's result is visible to the next read") { store in
            try await store.write { try $0.insertAuthSession(S.session("s1")) }
            try expect(try await store.read { try $0.authSession(id: "s1") } != nil, "write not visible")
        },
        Check("many concurrent writes, some failing, are each all-or-nothing") { store in
            let results = try await withThrowingTaskGroup(of: Bool.self) { group in
                for n in 0..<100 {
                    group.addTask {
                        do {
                            try await store.write { writer in
                                _ = try writer.appendSecurityEvent(
                                    SecurityEvent(occurredAt: S.at(Double(n)), storedKind: "n\(n)", outcome: "ok"))
                                try writer.insertAuthSession(S.session("s\(n)"))
                                if n % 3 == 0 { throw DeliberateFailure() }
                            }
                            return true
                        } catch is DeliberateFailure {
                            return false
                        }
                    }
                }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            try expectEqual(results.filter { $0 }.count, 66, "successful writes")
            let events = try await store.read { try $0.securityEvents(after: 0, limit: 1_000) }
            try expectEqual(Set(events.map(\.seq)).count, 66, "distinct event seqs")
            let queued = try await store.write { try $0.takePendingSecurityEvents(limit: 1_000) }
            try expectEqual(queued.map(\.seq), events.map(\.seq), "every committed event queued for the audit log")
            try expect(!events.contains { Int($0.kind.dropFirst()).map { $0 % 3 == 0 } ?? true }, "failed write kept")
            let sessions = try await store.read { reader in
                try (0..<100).filter { try reader.authSession(id: "s\($0)") != nil }
            }
            try expectEqual(sessions, (0..<100).filter { $0 % 3 != 0 }, "sessions kept")
        },
        Check("a write's admission is asked once, before its body; a refusal runs nothing and is the write's error") {
            store in
            let asked = Mutex(0)
            let ran = Mutex(false)
            do {
                let refusal = WriteAdmission {
                    asked.withLock { $0 += 1 }
                    throw DeliberateFailure()
                }
                try await store.write(admission: refusal) { writer in
                    ran.withLock { $0 = true }
                    try writer.insertAuthSession(S.session("refused"))
                }
                throw ConformanceFailure(message: "a refused admission was ignored", file: #fileID, line: #line)
            } catch is DeliberateFailure {}
            try expectEqual(asked.withLock { $0 }, 1, "admissions asked of a refused write")
            try expect(!ran.withLock { $0 }, "the body of a refused write ran")
            try expect(try await store.read { try $0.authSession(id: "refused") } == nil, "a refused write wrote")
            let order = Mutex<[String]>([])
            try await store.write(admission: WriteAdmission { order.withLock { $0.append("admitted") } }) { writer in
                order.withLock { $0.append("body") }
                try writer.insertAuthSession(S.session("admitted"))
            }
            try expectEqual(order.withLock { $0 }, ["admitted", "body"], "admission, then the body, once each")
            try expect(try await store.read { try $0.authSession(id: "admitted") } != nil, "an admitted write is lost")
        },
        Check("a closed store refuses work with .closed") { store in
            await store.close()
            try await expectStorageError(.closed, "read after close") { try await store.read { try $0.signingKeys() } }
            try await expectStorageError(.closed, "write after close") {
                try await store.write { try $0.insertAuthSession(S.session("s")) }
            }
        },
    ]
}
