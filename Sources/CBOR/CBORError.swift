/// The one error type of the CBOR module: a stable `code` for callers, a `reason` for logs.
public struct CBORError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable error code; other files may add codes in extensions.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's stable text.
        public let rawValue: String
        /// Wraps a code text.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's stable text.
        public var description: String { rawValue }

        /// The input is not well-formed CBOR (RFC 8949 §3), e.g. a reserved additional-information value.
        public static let malformed = Code(rawValue: "malformed")
        /// The input ends before the item it declares is complete.
        public static let truncated = Code(rawValue: "truncated")
        /// Bytes remain after the single top-level item.
        public static let trailingBytes = Code(rawValue: "trailingBytes")
        /// Indefinite-length items, refused by the CTAP2 canonical encoding WebAuthn requires.
        public static let indefiniteLength = Code(rawValue: "indefiniteLength")
        /// A map holds the same key twice (RFC 8949 §5.6).
        public static let duplicateMapKey = Code(rawValue: "duplicateMapKey")
        /// Items nest deeper than `CBORDecoder.Limits.maxDepth`.
        public static let depthExceeded = Code(rawValue: "depthExceeded")
        /// A declared length or the item count exceeds the input size or the configured limit.
        public static let tooLarge = Code(rawValue: "tooLarge")
        /// A text string is not valid UTF-8 (RFC 8949 §3.1, major type 3).
        public static let invalidUTF8 = Code(rawValue: "invalidUTF8")
        /// libcbor could not build or serialise a value (allocation failure).
        public static let encodingFailed = Code(rawValue: "encodingFailed")
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
