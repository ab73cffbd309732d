/// The one error type of the HTTP module: a stable `code` for clients and a `reason` for logs.
///
/// Equality compares codes only, so tests and callers match on what went wrong, not on wording.
public struct HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable, machine-readable error code: the closed set of what can go wrong, spelled in snake_case.
    public enum Code: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        /// The textual form.
        public var description: String { rawValue }

        /// The body is not well-formed JSON (RFC 8259 / RFC 7493), or does not have the expected shape.
        case malformedJSON = "malformed_json"
        /// The body is not well-formed `application/x-www-form-urlencoded`, or repeats a parameter.
        case malformedForm = "malformed_form"
        /// The request's `Content-Type` is missing or not one this endpoint accepts.
        case unsupportedMediaType = "unsupported_media_type"
        /// The request body exceeds the configured limit.
        case bodyTooLarge = "body_too_large"
        /// The request's message framing is ambiguous or invalid (RFC 9112 §2.2, §3.2, §5.1, §5.2, §6.1, §6.3; RFC 9110
        /// §5.5): answered with 400 and a close, before any of the body is read.
        case malformedFraming = "malformed_framing"
        /// The request method is not one of `HTTPMethod.implemented` (RFC 9110 §15.6.2: 501).
        case methodNotImplemented = "method_not_implemented"
        /// The request's `Transfer-Encoding` names a coding other than `chunked` (RFC 9112 §6.1: 501).
        case transferCodingNotImplemented = "transfer_coding_not_implemented"
        /// The request's header fields and body did not all arrive within the request read timeout (RFC 9110 §15.5.9).
        case requestTimeout = "request_timeout"
        /// A server configuration value is unusable (address, TLS files, limits).
        case invalidConfiguration = "invalid_configuration"
        /// libmicrohttpd refused to start (port in use, TLS setup failure, …).
        case startFailed = "start_failed"
        /// `start()` was called on a server that is running or was shut down.
        case invalidState = "invalid_state"

        /// A write was attempted for a request already answered 503 (deadline or shutdown): it was not begun.
        case requestWithdrawn = "request_withdrawn"
    }

    /// What went wrong, stable across releases.
    public let code: Code
    /// A human-readable explanation for logs; never sent to clients.
    public let reason: String
    /// The source file that threw.
    public let file: String
    /// The source line that threw.
    public let line: Int

    /// Creates an error, capturing the throw site.
    public init(_ code: Code, _ reason: String, file: String = #fileID, line: Int = #line) {
        self.code = code
        self.reason = reason
        self.file = file
        self.line = line
    }

    /// Errors are equal when their codes are equal.
    public static func == (lhs: HTTPError, rhs: HTTPError) -> Bool {
        lhs.code == rhs.code
    }

    /// `code: reason (file:line)`, for logs.
    public var description: String {
        "\(code.rawValue): \(reason) (\(file):\(line))"
    }
}
