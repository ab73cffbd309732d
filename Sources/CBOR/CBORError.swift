/// The one error type of the CBOR module: a stable `code` for callers, a `reason` for logs.
public struct CBORError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable error code: the closed set of what can go wrong, spelled in snake_case.
    public enum Code: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        /// The code's stable text.
        public var description: String { rawValue }

        /// The input is not well-formed CBOR (RFC 8949 §3), e.g. a reserved additional-information value.
        case malformed = "malformed"
        /// The input ends before the item it declares is complete.
        case truncated = "truncated"
        /// Bytes remain after the single top-level item.
        case trailingBytes = "trailing_bytes"
        /// Indefinite-length items, refused by the CTAP2 canonical encoding WebAuthn requires.
        case indefiniteLength = "indefinite_length"
        /// A map holds the same key twice (RFC 8949 §5.6).
        case duplicateMapKey = "duplicate_map_key"
        /// Items nest deeper than `CBORDecoder.Limits.maxDepth`.
        case depthExceeded = "depth_exceeded"
        /// A declared length or the item count exceeds the input size or the configured limit.
        case tooLarge = "too_large"
        /// A text string is not valid UTF-8 (RFC 8949 §3.1, major type 3).
        case invalidUTF8 = "invalid_utf8"
        /// libcbor could not build or serialise a value (allocation failure).
        case encodingFailed = "encoding_failed"
    }

    /// What went wrong, stable across releases.
    public let code: Code
    /// Human-readable detail for logs.
    public let reason: String
    /// Source file of the throw site.
    public let file: String
    /// Source line of the throw site.
    public let line: Int

    /// Creates an error, capturing the throw site.
    public init(_ code: Code, _ reason: String, file: String = #fileID, line: Int = #line) {
        self.code = code
        self.reason = reason
        self.file = file
        self.line = line
    }

    /// Equality by code only: the reason and the throw site are for logs.
    public static func == (lhs: CBORError, rhs: CBORError) -> Bool { lhs.code == rhs.code }

    /// `code: reason (file:line)`.
    public var description: String { "\(code.rawValue): \(reason) (\(file):\(line))" }
}
