import Storage
import Tokens

extension RefreshTokenState {
    /// The policy's view of a stored refresh token: its expiry and whether it was rotated or revoked.
    package init(_ record: Storage.RefreshToken) {
        self.init(
            expiry: RefreshTokenExpiry(idle: record.idleExpiresAt, absolute: record.absoluteExpiresAt),
            rotatedAt: record.rotatedAt, revokedAt: record.revokedAt)
    }
}
