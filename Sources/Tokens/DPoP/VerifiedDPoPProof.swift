import Foundation

/// A DPoP proof whose checks of RFC 9449 §4.3 all passed, save `jti` uniqueness, which needs the store and is the
/// caller's (check 11's second half). Only `DPoPProofVerifier` creates one.
public struct VerifiedDPoPProof: Sendable {
    /// The proof's public key.
    public let key: DPoPProofKey
    /// Its RFC 7638 thumbprint: the `jkt` tokens are bound to.
    public let thumbprint: String
    /// `jti`: unique per key within the window.
    public let jwtID: String
    /// `iat`.
    public let issuedAt: Date
}
