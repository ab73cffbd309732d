/// The error of the TestSupport module: a software authenticator or a test client could not do what it was asked
/// (options it cannot read, a key it cannot make). Equality compares codes only.
public struct TestSupportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable identifier of what went wrong: a closed set, spelled in snake_case.
    public enum Code: String, Hashable, Sendable, CaseIterable {

        /// Options JSON that is not what the server documents.
        case malformedOptions = "malformed_options"
        /// None of the offered algorithms is one this authenticator implements.
        case unsupportedAlgorithm = "unsupported_algorithm"
        /// Key generation, signing or CBOR encoding failed.
        case internalFailure = "internal_failure"
    }

    /// What went wrong.
    public let code: Code
    /// Details for the log.
    public let reason: String
    /// Where it was thrown.
    public let file: String
    /// Where it was thrown.
    public let line: Int

    /// Creates an error, capturing the throw site.
    public init(_ code: Code, _ reason: String, file: String = #fileID, line: Int = #line) {
        self.code = code
        self.reason = reason
        self.file = file
        self.line = line
    }

    /// `code: reason (file:line)`.
    public var description: String { "\(code.rawValue): \(reason) (\(file):\(line))" }

    /// Errors are equal when their codes are.
    public static func == (lhs: TestSupportError, rhs: TestSupportError) -> Bool { lhs.code == rhs.code }
}
