/// The error of the SoftwareClient module: the software authenticator could not do what it was asked (options it
/// cannot read, a key it cannot make), or the exchange with the server failed (the connection, a response that is not
/// HTTP/1.1 as framed here, a status other than 200). Equality compares codes only.
public struct SoftwareClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable identifier of what went wrong: a closed set, spelled in snake_case.
    public enum Code: String, Hashable, Sendable, CaseIterable {

        /// Options JSON that is not what the server documents.
        case malformedOptions = "malformed_options"
        /// None of the offered algorithms is one this authenticator implements.
        case unsupportedAlgorithm = "unsupported_algorithm"
        /// Key generation, signing or CBOR encoding failed.
        case internalFailure = "internal_failure"
        /// Connecting, writing or reading the socket failed.
        case transport = "transport"
        /// The response was not HTTP/1.1 with Content-Length framing, or not the JSON the server documents.
        case malformedResponse = "malformed_response"
        /// The server answered with a status other than 200.
        case unexpectedStatus = "unexpected_status"
    }

    /// What went wrong.
    public let code: Code
    /// Details for the log; for `unexpectedStatus`, the path, the status and the start of the server's answer.
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
    public static func == (lhs: SoftwareClientError, rhs: SoftwareClientError) -> Bool { lhs.code == rhs.code }
}
