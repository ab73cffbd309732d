import Foundation

/// One accepted DPoP proof, remembered so that its replay is refused on any node (RFC 9449 §11.1: `jti` unique per
/// key within the window in which `iat` is accepted).
public struct DPoPProofUse: Sendable, Hashable {
    /// The RFC 7638 thumbprint of the proof's key.
    public var thumbprint: String
    /// The proof's `jti`.
    public var jwtID: String
    /// When the proof can no longer be accepted (`iat` + the window): the record may be purged from then on.
    public var expiresAt: Date

    /// Creates the record.
    public init(thumbprint: String, jwtID: String, expiresAt: Date) {
        self.thumbprint = thumbprint
        self.jwtID = jwtID
        self.expiresAt = expiresAt
    }
}
