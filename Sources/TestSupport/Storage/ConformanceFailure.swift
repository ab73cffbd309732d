import Storage

/// A store behaved differently from what the conformance suite expects.
public struct ConformanceFailure: Error, CustomStringConvertible {
    /// What was expected and what happened.
    public let message: String
    /// Where the expectation is written.
    public let file: String
    /// The line of the expectation.
    public let line: Int

    /// `file:line: message`.
    public var description: String { "\(file):\(line): store conformance: \(message)" }
}

/// Throws `ConformanceFailure(message)` unless `condition` holds.
func expect(
    _ condition: Bool, _ message: @autoclosure () -> String, file: String = #fileID, line: Int = #line
) throws {
    guard condition else { throw ConformanceFailure(message: message(), file: file, line: line) }
}

/// Throws unless `actual == expected`.
func expectEqual<T: Equatable>(
    _ actual: T, _ expected: T, _ what: String, file: String = #fileID, line: Int = #line
) throws {
    guard actual == expected else {
        throw ConformanceFailure(message: "\(what): expected \(expected), got \(actual)", file: file, line: line)
    }
}

/// Runs `operation` and throws unless it throws a `StorageError` with `code` (and `constraint`, when given).
func expectStorageError<T>(
    _ code: StorageError.Code, constraint: StorageError.Constraint? = nil, _ what: String,
    file: String = #fileID, line: Int = #line, _ operation: () async throws -> T
) async throws {
    do {
        _ = try await operation()
    } catch let error as StorageError {
        try expect(error.code == code, "\(what): expected \(code), got \(error)", file: file, line: line)
        if let constraint {
            try expect(
                error.constraint == constraint, "\(what): expected constraint \(constraint), got \(error)",
                file: file, line: line)
        }
        return
    }
    throw ConformanceFailure(message: "\(what): expected \(code), nothing was thrown", file: file, line: line)
}
