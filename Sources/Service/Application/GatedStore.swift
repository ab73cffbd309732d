import Storage

/// What may still stop a write before it begins: the HTTP layer's commitment of the request the write serves
/// (`RequestCommitmentGate`, beside the endpoints). `nil` from `admission()`: no request, the write passes.
public protocol WriteGate: Sendable {
    /// The admission of a write about to be handed to the store by the running task, if it serves a request.
    func admission() -> WriteAdmission?
}

/// The store as the flows see it: each write is admitted by the gate (`WriteGate`: the request it serves commits as
/// its transaction begins, asked by the driver once the write has its connection or its turn), so that the HTTP
/// layer never answers 503 for a request whose write goes on to commit, while a write still queued counts against
/// the deadline. If the request's deadline or shutdown has already answered 503, the write is withdrawn before it
/// begins (mapped to the same 503) and nothing is written. Outside a request (housekeeping, key rotation) writes pass.
///
/// It also carries the origin of the security events each write appends (`SecurityEventOrigin`): the request the
/// endpoints bound, else this node alone, rebound inside the body, which the driver may run on another thread.
package struct GatedStore: Store {
    /// The driver's store.
    package let base: any Store
    /// What admits each write (`nil`: every write passes).
    package var gate: (any WriteGate)?
    /// This node's id (`audit.node_id`), stamped on every security event it records.
    package var nodeID: String? = nil

    package func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) throws -> T) async throws -> T {
        try await base.read(body)
    }

    package func write<T: Sendable>(_ body: @escaping @Sendable (any StoreWriter) throws -> T) async throws -> T {
        // Committed when the driver begins the transaction, not now: a write queued for a connection (a slow
        // database) can still be withdrawn by the deadline, with its 503 and nothing written. Once begun, its
        // statements are bounded by the same deadline, so a stuck one is a 503 then too, with nothing written.
        guard let admission = gate?.admission() else { return try await base.write(bound(body)) }
        return try await base.write(admission: admission, bound(body))
    }

    /// As `write`, for a body that is one writer operation (`Store.writeOperation`).
    package func writeOperation<T: Sendable>(
        admission: WriteAdmission?, recover: (@Sendable (any StoreReader) throws -> T?)?,
        _ body: @escaping @Sendable (any StoreWriter) throws -> T
    ) async throws -> T {
        try await base.writeOperation(admission: admission ?? gate?.admission(), recover: recover, bound(body))
    }

    /// `body` with this write's origin bound around it (the driver may run it on another thread).
    private func bound<T: Sendable>(
        _ body: @escaping @Sendable (any StoreWriter) throws -> T
    ) -> @Sendable (any StoreWriter) throws -> T {
        var origin = SecurityEventOrigin.current ?? SecurityEventOrigin()
        origin.nodeID = origin.nodeID ?? nodeID
        return { [origin] writer in
            try SecurityEventOrigin.$current.withValue(origin) { try body(writer) }
        }
    }

    package func close() async {
        await base.close()
    }
}
