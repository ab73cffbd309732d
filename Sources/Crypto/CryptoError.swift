/// The one error type of the `Crypto` module: a stable `code` for callers (and, mapped, for clients)
/// plus a `reason` for logs, which for OpenSSL failures carries the drained OpenSSL error queue.
///
/// Two errors are equal when their codes are equal; `reason`, `file` and `line` are diagnostics.
public struct CryptoError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable machine-readable error code: the closed set of what can go wrong, spelled in snake_case.
    public enum Code: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        /// The raw value.
        public var description: String { rawValue }

        /// A key is malformed, off its curve, of the wrong length or too weak.
        case invalidKey = "invalid_key"
        /// A signature is malformed (not strict DER, wrong length, out of range).
        case invalidSignature = "invalid_signature"
        /// An algorithm, curve or key type this module does not support.
        case unsupportedAlgorithm = "unsupported_algorithm"
        /// A certificate that does not parse as X.509 DER, or violates RFC 5280 structure rules.
        case invalidCertificate = "invalid_certificate"
        /// Bytes that are not one well-formed DER element of the expected kind.
        case invalidDER = "invalid_der"
        /// A certificate chain that does not verify for a reason other than time or trust anchor.
        case chainInvalid = "chain_invalid"
        /// A certificate chain that does not end in one of the trusted roots.
        case untrustedRoot = "untrusted_root"
        /// A certificate in the chain is expired or not yet valid at the validation time.
        case certificateExpired = "certificate_expired"
        /// A certificate of the chain is listed on a CRL its issuer signed (RFC 5280 §6.3).
        case certificateRevoked = "certificate_revoked"
        /// CRLs were given, but none of them is the issuer's CRL for a certificate of the chain, so its revocation
        /// status is unknown (OpenSSL `X509_V_ERR_UNABLE_TO_GET_CRL`).
        case revocationListMissing = "revocation_list_missing"
        /// An authenticated ciphertext (AES-GCM) whose tag does not verify under the key, nonce and associated data
        /// given: tampered, truncated, or sealed under another key.
        case authenticationFailed = "authentication_failed"
        /// The OpenSSL CSPRNG failed to produce bytes.
        case randomFailure = "random_failure"
        /// An OpenSSL call failed for a reason unrelated to the input (allocation, provider).
        case internalFailure = "internal_failure"
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
