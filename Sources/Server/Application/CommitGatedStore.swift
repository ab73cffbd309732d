import HTTP
import Storage

/// The store as the endpoints see it: each write commits the request it serves (`RequestCommitment`) as its
/// transaction begins (`WriteAdmission`, asked by the driver once the write has its connection or its turn), so
/// that the HTTP layer never answers 503 for a request whose write goes on to commit, while a write still queued
/// counts against the deadline. If the request's deadline or shutdown has already answered 503, the write is
/// withdrawn before it begins (`HTTPError.requestWithdrawn`, mapped to the same 503) and nothing is written.
/// Outside a request (housekeeping, key rotation) writes pass.
///
/// It also carries the origin of the security events each write appends (`SecurityEventOrigin`): the request the
/// `Application` bound, else this node alone, rebound inside the body, which the driver may run on another thread.
struct CommitGatedStore: Store {
    /// The driver's store.
    let base: any Store
    /// This node's id (`audit.node_id`), stamped on every security event it records.
    var nodeID: String? = nil

    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) throws -> T) async throws -> T {
        try await base.read(body)
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreWriter) throws -> T) async throws -> T {
        var origin = SecurityEventOrigin.current ?? SecurityEventOrigin()
        origin.nodeID = origin.nodeID ?? nodeID
        let bound: @Sendable (any StoreWriter) throws -> T = { [origin] writer in
            try SecurityEventOrigin.$current.withValue(origin) { try body(writer) }
        }
        guard let commitment = RequestCommitment.current else { return try await base.write(bound) }
        // Committed when the driver begins the transaction, not now: a write queued for a connection (a slow
        // database) can still be withdrawn by the deadline, with its 503 and nothing written. Once begun, its
        // statements are bounded by the same deadline, so a stuck one is a 503 then too, with nothing written.
        return try await base.write(
            admission: WriteAdmission(deadline: commitment.deadline) { try commitment.commit() }, bound)
    }

    func close() async {
        await base.close()
    }
}
