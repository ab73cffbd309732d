/// Why an audit-log operation or verification failed.
public struct AuditError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure; stable for tests and callers.
    public enum Code: String, Sendable, Equatable {
        /// A tree size, index or range outside the tree.
        case outOfRange = "out_of_range"
        /// A signed note, checkpoint or verifier key that is not in its format.
        case malformed
        /// A signature that does not verify, or no signature by the expected key.
        case badSignature = "bad_signature"
        /// A proof or a recomputed root that does not match.
        case mismatch
        /// The signer (HSM or key file) failed.
        case signerFailure = "signer_failure"
    }

    public let code: Code
    public let reason: String

    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { "\(code.rawValue): \(reason)" }
}
