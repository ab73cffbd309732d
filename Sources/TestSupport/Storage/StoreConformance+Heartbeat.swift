import Foundation
import Storage

extension StoreConformance {
    static let heartbeatChecks: [Check] = [
        Check("the readiness heartbeat is recorded, overwritten in place, and rolled back with its body") { store in
            try expect(try await store.read { try $0.lastHeartbeat() } == nil, "a fresh store has a heartbeat")
            try await store.write { try $0.recordHeartbeat(at: S.at(1)) }
            try await store.write { try $0.recordHeartbeat(at: S.at(2)) }
            try expectEqual(try await store.read { try $0.lastHeartbeat() }, Optional(S.at(2)), "last heartbeat")
            do {
                try await store.write { writer in
                    try writer.recordHeartbeat(at: S.at(3))
                    throw DeliberateFailure()
                }
            } catch is DeliberateFailure {}
            try expectEqual(
                try await store.read { try $0.lastHeartbeat() }, Optional(S.at(2)), "heartbeat after a rollback")
        }
    ]
}
