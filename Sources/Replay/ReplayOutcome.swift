import WebAuthn

/// The result of replaying one recorded ceremony.
public struct ReplayOutcome: Sendable, CustomStringConvertible {
    /// The ceremony's name.
    public let name: String
    /// Whether the verifier's outcome matched the recording in every compared field.
    public let passed: Bool
    /// What the recording expects, as text.
    public let expected: String
    /// What the verifier did, as text.
    public let actual: String
    /// The code the verifier threw, when it threw.
    public let errorCode: WebAuthnError.Code?
    /// Each field that differed, `field: expected … actual …`.
    public let mismatches: [String]

    /// `PASS name`, `PASS name (refused: code)` for a refusal the recording expects (the code the token
    /// endpoint logs and counts), or `FAIL name: mismatches`.
    public var description: String {
        guard passed else { return "FAIL \(name): \(mismatches.joined(separator: "; "))" }
        return errorCode.map { "PASS \(name) (refused: \($0.rawValue))" } ?? "PASS \(name)"
    }
}
