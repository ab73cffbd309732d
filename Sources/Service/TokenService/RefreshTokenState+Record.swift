import Storage
import Tokens

extension RefreshTokenState {
    /// The policy's view of a stored refresh token: its expiry, whether it was rotated or revoked, and, when it was
    /// rotated, its successor's record as read (`nil`: unknown, so its presentation cannot be a retry).
    package init(_ record: Storage.RefreshToken, successor: Storage.RefreshToken? = nil) {
        self.init(
            expiry: RefreshTokenExpiry(idle: record.idleExpiresAt, absolute: record.absoluteExpiresAt),
            rotatedAt: record.rotatedAt, revokedAt: record.revokedAt,
            successor: successor.map { Successor(rotatedAt: $0.rotatedAt, revokedAt: $0.revokedAt) })
    }
}
