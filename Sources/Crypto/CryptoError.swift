/// The one error type of the `Crypto` module: a stable `code` for callers (and, mapped, for clients)
/// plus a `reason` for logs, which for OpenSSL failures carries the drained OpenSSL error queue.
///
/// Two errors are equal when their codes are equal; `reason`, `file` and `line` are diagnostics.
public struct CryptoError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable machine-readable error code. Other files may add codes in extensions.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's stable string value.
        public let rawValue: String
        /// Wraps a raw code string.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The raw value.
        public var description: String { rawValue }

        /// A key is malformed, off its curve, of the wrong length or too weak.
        public static let invalidKey = Code(rawValue: "invalidKey")
        /// A signature is malformed (not strict DER, wrong length, out of range).
        public static let invalidSignature = Code(rawValue: "invalidSignature")
        /// An algorithm, curve or key type this module does not support.
        public static let unsupportedAlgorithm = Code(rawValue: "unsupportedAlgorithm")
        /// A certificate that does not parse as X.509 DER, or violates RFC 5280 structure rules.
        public static let invalidCertificate = Code(rawValue: "invalidCertificate")
        /// Bytes that are not one well-formed DER element of the expected kind.
        public static let invalidDER = Code(rawValue: "invalidDER")
        /// A certificate chain that does not verify for a reason other than time or trust anchor.
        public static let chainInvalid = Code(rawValue: "chainInvalid")
        /// A certificate chain that does not end in one of the trusted roots.
        public static let untrustedRoot = Code(rawValue: "untrustedRoot")
        /// A certificate in the chain is expired or not yet valid at the validation time.
        public static let certificateExpired = Code(rawValue: "certificateExpired")
        /// The OpenSSL CSPRNG failed to produce bytes.
        public static let randomFailure = Code(rawValue: "randomFailure")
        /// An OpenSSL call failed for a reason unrelated to the input (allocation, provider).
        public static let internalFailure = Code(rawValue: "internalFailure")
    }

    /// The stable error code.
    public let code: Code
    /// A human-readable explanation for logs (may contain OpenSSL's error text).
    public let reason: String
    /// The source file of the throw site.
    public let file: String
    /// The source line of the throw site.
    public let line: UInt

    /// Creates an error, capturing the throw site.
    public init(_ code: Code, _ reason: String, file: String = #fileID, line: UInt = #line) {
        self.code = code
        self.reason = reason
        self.file = file
        self.line = line
    }

    /// `code: reason (file:line)`.
    public var description: String { "\(code.rawValue): \(reason) (\(file):\(line))" }

    /// Errors are equal when their codes are equal.
    public static func == (lhs: CryptoError, rhs: CryptoError) -> Bool { lhs.code == rhs.code }
}
