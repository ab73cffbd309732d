/// The outcome of presenting a refresh token for rotation (OAuth 2.0 Security BCP, RFC 9700 §4.14.2).
public enum RefreshTokenRotation: Sendable, Hashable {
    /// The presented token was live: it is now marked rotated and the replacement is stored.
    /// Carries the presented token as it was before rotation.
    case rotated(RefreshToken)
    /// The presented token had already been rotated: reuse. Every token of its family is now revoked.
    /// Carries the presented token (with `revokedAt` set).
    case reused(RefreshToken)
    /// No token has that hash.
    case notFound
    /// The presented token is past its idle or absolute expiry; nothing changed.
    case expired(RefreshToken)
    /// The presented token (its family) was revoked earlier; nothing changed.
    case revoked(RefreshToken)
}
