/// The one error type of the DeviceKeys module: a stable `code` for the client, a `reason` for the log.
///
/// Equality compares codes only, so tests and callers match on what went wrong, not on the wording.
public struct DeviceKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable, machine-readable error code. Other files add codes in extensions.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's wire spelling.
        public let rawValue: String
        /// Wraps a code spelling.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's wire spelling.
        public var description: String { rawValue }
    }

    /// What went wrong, stable across releases.
    public let code: Code
    /// Human-readable detail for the log; never shown to the client.
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

    /// Errors are equal when their codes are equal.
    public static func == (lhs: DeviceKeyError, rhs: DeviceKeyError) -> Bool { lhs.code == rhs.code }

    /// `code: reason (file:line)`.
    public var description: String { "\(code.rawValue): \(reason) (\(file):\(line))" }
}

extension DeviceKeyError.Code {
    // MARK: public-key import
    /// The key bytes are neither an X9.62 point nor a SubjectPublicKeyInfo.
    public static let malformedKey = Self(rawValue: "malformedKey")
    /// An X9.62 point or SPKI bit string of the wrong length for P-256.
    public static let invalidKeyLength = Self(rawValue: "invalidKeyLength")
    /// A compressed EC point (0x02/0x03), which we do not accept.
    public static let compressedPoint = Self(rawValue: "compressedPoint")
    /// An EC key on a curve other than P-256.
    public static let unsupportedCurve = Self(rawValue: "unsupportedCurve")
    /// A key that is not EC at all (RSA, Ed25519, …).
    public static let unsupportedKeyType = Self(rawValue: "unsupportedKeyType")
    /// The point is not on the P-256 curve (or is the point at infinity).
    public static let pointNotOnCurve = Self(rawValue: "pointNotOnCurve")

    // MARK: actions and challenges
    /// The action is not JSON or has no canonical form (repeated names, non-finite numbers); each size and shape
    /// limit has its own code (`actionTooDeep`, `actionTooLarge`, …).
    public static let invalidAuthorizationDetails = Self(rawValue: "invalidAuthorizationDetails")
    /// A challenge document field is invalid (nonce length, times, empty identifiers) or the document is not canonical.
    public static let invalidChallengeDocument = Self(rawValue: "invalidChallengeDocument")

    // MARK: approval verification
    /// The challenge expired before the approval arrived.
    public static let challengeExpired = Self(rawValue: "challengeExpired")
    /// The signed document names another challenge, key, subject or action than the stored challenge.
    public static let challengeMismatch = Self(rawValue: "challengeMismatch")
    /// The device signature does not verify over the document bytes with the stored key.
    public static let invalidSignature = Self(rawValue: "invalidSignature")
}
