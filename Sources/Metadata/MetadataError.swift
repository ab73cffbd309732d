/// The one error type of the `Metadata` module: a stable `code` naming why a FIDO MDS3 BLOB was refused, plus a
/// `reason` for logs and the operator (which file, which field, OpenSSL's verify reason).
///
/// Two errors are equal when their codes are equal; `reason`, `file` and `line` are diagnostics.
package struct MetadataError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable machine-readable error code, spelled in snake_case.
    package enum Code: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        /// The raw value.
        package var description: String { rawValue }

        /// Not a compact JWS, a header or payload that is not the MDS3 shape, a date that is not `YYYY-MM-DD`,
        /// an entry that does not parse, or a JWS over the size cap.
        case malformed = "malformed"
        /// The JWS `alg` is not RS256 or ES256, e.g. `none` or HS256.
        case unsupportedAlgorithm = "unsupported_algorithm"
        /// The header has no `x5c` chain; an `x5u` (a URL to fetch it from) is refused: verification is offline.
        case missingCertificateChain = "missing_certificate_chain"
        /// The `x5c` chain does not lead to a configured root at the time of use, or a given CRL does not cover a
        /// CA of the chain (the reason names OpenSSL's verify error).
        case untrustedChain = "untrusted_chain"
        /// A given CRL lists a certificate of the `x5c` chain.
        case revoked = "revoked"
        /// The JWS signature does not verify with the `x5c` leaf's key.
        case badSignature = "bad_signature"
        /// `nextUpdate` is before the day of the time of use.
        case stale = "stale"
    }

    /// The stable error code.
    package let code: Code
    /// A human-readable explanation for logs.
    package let reason: String
    /// The source file of the throw site.
    package let file: String
    /// The source line of the throw site.
    package let line: Int

    /// Creates an error, capturing the throw site.
    package init(_ code: Code, _ reason: String, file: String = #fileID, line: Int = #line) {
        self.code = code
        self.reason = reason
        self.file = file
        self.line = line
    }

    /// `code: reason (file:line)`.
    package var description: String { "\(code.rawValue): \(reason) (\(file):\(line))" }

    /// Errors are equal when their codes are equal.
    package static func == (lhs: MetadataError, rhs: MetadataError) -> Bool { lhs.code == rhs.code }
}
