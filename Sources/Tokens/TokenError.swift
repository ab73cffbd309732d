/// The one error type of the Tokens module: a stable `code` for the client, a `reason` for the log.
///
/// Equality compares codes only, so tests and callers match on what went wrong, not on the wording.
public struct TokenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable, machine-readable error code: the closed set of what can go wrong, spelled in snake_case.
    public enum Code: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        /// The code's spelling.
        public var description: String { rawValue }

        // MARK: JWS structure (RFC 7515)
        /// Not three base64url segments, or a header/payload that is not a JSON object.
        case malformedToken = "malformed_token"
        /// `alg` is not exactly "ES256" (covers "none" and algorithm confusion), or `crit` is present.
        case unsupportedAlgorithm = "unsupported_algorithm"
        /// `kid` missing or not in the verifier's key set.
        case unknownKey = "unknown_key"
        /// The signature is not 64 bytes or does not verify.
        case invalidSignature = "invalid_signature"
        /// `typ` is not the expected media type.
        case unexpectedType = "unexpected_type"

        // MARK: JWT claims (RFC 7519 §4.1)
        /// `exp` is missing or not a number.
        case missingClaim = "missing_claim"
        /// A claim has the wrong JSON type or an impossible value.
        case invalidClaim = "invalid_claim"
        /// `exp` is in the past (beyond the leeway).
        case expired = "expired"
        /// `nbf` is in the future (beyond the leeway).
        case notYetValid = "not_yet_valid"
        /// `iat` is in the future (beyond the leeway).
        case issuedInFuture = "issued_in_future"
        /// `iss` is not the expected issuer.
        case invalidIssuer = "invalid_issuer"
        /// `aud` does not contain the expected audience.
        case invalidAudience = "invalid_audience"

        // MARK: minting and keys
        /// The claims break a minting rule (e.g. an action token living longer than 5 minutes).
        case invalidLifetime = "invalid_lifetime"
        /// Signing failed inside Crypto.
        case signingFailed = "signing_failed"
        /// A key that cannot be used here (not P-256, or no key active now).
        case unusableKey = "unusable_key"

        // MARK: refresh tokens
        /// A presented refresh token is not a well-formed token of ours (never looked up).
        case malformedRefreshToken = "malformed_refresh_token"

        // MARK: DPoP proofs (RFC 9449 §4.3, one code per check)
        /// Not a compact JWS whose header and payload are JSON objects, or too long (check 2).
        case dpopMalformed = "dpop_malformed"
        /// A required header parameter or claim (`typ`, `alg`, `jwk`, `jti`, `htm`, `htu`, `iat`) is missing or of
        /// the wrong type (check 3).
        case dpopMissingClaim = "dpop_missing_claim"
        /// `typ` is not `dpop+jwt` (check 4).
        case dpopWrongType = "dpop_wrong_type"
        /// `alg` is not ES256 or EdDSA, does not fit the key, or `crit` is present (check 5).
        case dpopUnsupportedAlgorithm = "dpop_unsupported_algorithm"
        /// The signature does not verify with the `jwk` (check 6).
        case dpopInvalidSignature = "dpop_invalid_signature"
        /// `jwk` holds a private key, or is not a P-256 or Ed25519 public key (check 7).
        case dpopInvalidKey = "dpop_invalid_key"
        /// `htm` is not the request's method (check 8).
        case dpopMethodMismatch = "dpop_method_mismatch"
        /// `htu` is not the request's URI, query and fragment ignored (check 9).
        case dpopURIMismatch = "dpop_uri_mismatch"
        /// The server asked for a nonce and `nonce` is missing or not a current one (check 10).
        case dpopNonceRequired = "dpop_nonce_required"
        /// `iat` is outside the accepted window (check 11).
        case dpopStale = "dpop_stale"
        /// `ath` is missing or not the hash of the presented access token (check 12).
        case dpopAccessTokenHash = "dpop_access_token_hash"
        /// The proof's key is not the key the token is bound to (check 13).
        case dpopKeyMismatch = "dpop_key_mismatch"
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
