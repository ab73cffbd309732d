/// The one error type of the JSON module: a stable `code` for callers, a `reason` for the log.
///
/// Equality compares codes only, so tests and callers match on what went wrong, not on the wording.
public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable, machine-readable error code: the closed set of what can go wrong, spelled in snake_case.
    public enum Code: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        /// The code's spelling.
        public var description: String { rawValue }

        /// The bytes are not RFC 8259 JSON, or not I-JSON (RFC 7493: invalid UTF-8, lone surrogates).
        case invalidJSON = "invalid_json"
        /// An object repeats a member name (RFC 7493 §2.3).
        case duplicateMemberName = "duplicate_member_name"
        /// Arrays and objects nest deeper than the parser's limit.
        case nestingTooDeep = "nesting_too_deep"
        /// A number has no finite IEEE 754 double value (RFC 8785 §3.2.2.3), or its text is not a JSON number.
        case nonFiniteNumber = "non_finite_number"
    }

    /// What went wrong, stable across releases.
    public let code: Code
    /// Human-readable detail for the log; never shown to a client.
    public let reason: String
    /// Source file of the throw site.
    public let file: String
    /// Source line of the throw site.
    public let line: Int
    /// Where in the input the parser stopped (a byte offset), when the error is the parser's: what a reader of a
    /// file turns into a line and column.
    public private(set) var offset: Int?

    /// Creates an error, capturing the throw site.
    public init(_ code: Code, _ reason: String, file: String = #fileID, line: Int = #line) {
        self.code = code
        self.reason = reason
        self.file = file
        self.line = line
    }

    /// The same error, found at byte `offset` of the input.
    func located(at offset: Int) -> JSONError {
        var located = self
        located.offset = offset
        return located
    }

    /// Errors are equal when their codes are equal.
    public static func == (lhs: JSONError, rhs: JSONError) -> Bool { lhs.code == rhs.code }

    /// `code: reason (file:line)`.
    public var description: String { "\(code.rawValue): \(reason) (\(file):\(line))" }
}
