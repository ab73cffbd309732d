import Crypto

/// The roots an RP trusts for attestation, per format (WebAuthn L3 §7.1 step 23: "obtain a list of
/// acceptable trust anchors … for that attestation type and attestation statement format").
public struct AttestationTrustAnchors: Sendable {
    /// Roots for specific `fmt` identifiers.
    public var byFormat: [String: [Certificate]]
    /// Roots for any format without its own entry.
    public var forAnyFormat: [Certificate]

    /// Creates a set of anchors; with no arguments, nothing is trusted.
    public init(byFormat: [String: [Certificate]] = [:], forAnyFormat: [Certificate] = []) {
        self.byFormat = byFormat
        self.forAnyFormat = forAnyFormat
    }

    /// The roots for `format` (empty: no chain can be judged trustworthy).
    public func roots(for format: String) -> [Certificate] {
        byFormat[format] ?? forAnyFormat
    }
}
