/// The one error type of the Tokens module: a stable `code` for the client, a `reason` for the log.
///
/// Equality compares codes only, so tests and callers match on what went wrong, not on the wording.
public struct TokenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable, machine-readable error code. Other files add codes in extensions.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's spelling.
        public let rawValue: String
        /// Wraps a code spelling.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's spelling.
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
    public static func == (lhs: TokenError, rhs: TokenError) -> Bool { lhs.code == rhs.code }

    /// `code: reason (file:line)`.
    public var description: String { "\(code.rawValue): \(reason) (\(file):\(line))" }
}

extension TokenError.Code {
    // MARK: JWS structure (RFC 7515)
    /// Not three base64url segments, or a header/payload that is not a JSON object.
    public static let malformedToken = Self(rawValue: "malformedToken")
    /// `alg` is not exactly "ES256" (covers "none" and algorithm confusion), or `crit` is present.
    public static let unsupportedAlgorithm = Self(rawValue: "unsupportedAlgorithm")
    /// `kid` missing or not in the verifier's key set.
    public static let unknownKey = Self(rawValue: "unknownKey")
    /// The signature is not 64 bytes or does not verify.
    public static let invalidSignature = Self(rawValue: "invalidSignature")
    /// `typ` is not the expected media type.
    public static let unexpectedType = Self(rawValue: "unexpectedType")

    // MARK: JWT claims (RFC 7519 §4.1)
    /// `exp` is missing or not a number.
    public static let missingClaim = Self(rawValue: "missingClaim")
    /// A claim has the wrong JSON type or an impossible value.
    public static let invalidClaim = Self(rawValue: "invalidClaim")
    /// `exp` is in the past (beyond the leeway).
    public static let expired = Self(rawValue: "expired")
    /// `nbf` is in the future (beyond the leeway).
    public static let notYetValid = Self(rawValue: "notYetValid")
    /// `iat` is in the future (beyond the leeway).
    public static let issuedInFuture = Self(rawValue: "issuedInFuture")
    /// `iss` is not the expected issuer.
    public static let invalidIssuer = Self(rawValue: "invalidIssuer")
    /// `aud` does not contain the expected audience.
    public static let invalidAudience = Self(rawValue: "invalidAudience")

    // MARK: minting and keys
    /// The claims break a minting rule (e.g. an action token living longer than 5 minutes).
    public static let invalidLifetime = Self(rawValue: "invalidLifetime")
    /// Signing failed inside Crypto.
    public static let signingFailed = Self(rawValue: "signingFailed")
    /// A key that cannot be used here (not P-256, or no key active now).
    public static let unusableKey = Self(rawValue: "unusableKey")

    // MARK: refresh tokens
    /// A presented refresh token is not a well-formed token of ours (never looked up).
    public static let malformedRefreshToken = Self(rawValue: "malformedRefreshToken")
}
