import Storage

/// Thrown to roll a write back, carrying what the write saw.
private struct RolledBack<Value: Sendable>: Error {
    let value: Value
}

extension StoreConformance {
    /// What `body` answers inside a write that is then rolled back: the store is left as it was, so a composite
    /// can be run again from the same state the other way (the driver's answer, then its step-by-step definition).
    static func rolledBack<Value: Sendable>(
        _ store: any Store, _ body: @escaping @Sendable (any StoreWriter) throws -> Value
    ) async throws -> Value {
        do {
            _ = try await store.write { writer throws -> Bool in throw RolledBack(value: try body(writer)) }
        } catch let rolled as RolledBack<Value> {
            return rolled.value
        }
        throw ConformanceFailure(message: "a write whose body threw committed", file: #fileID, line: #line)
    }
}
