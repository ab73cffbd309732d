import Configuration
import Crypto
import Foundation
import Storage

/// Ends a session family, the `sid` its access tokens carry, in the caller's write: every refresh token of the
/// family is revoked; a family with none (a login without `offline_access`) gets a revoked row that nobody holds,
/// which carries the revocation to `SessionStatus.familyRevoked` until the family's access tokens have expired. The
/// one rule for a reused authorization code (RFC 6749 §4.1.2) and a revoked access token (RFC 7009 §2.1).
package enum SessionFamilyRevocation {
    /// Whose family it is, for the marker row: what its access tokens say of their grant.
    package struct Grant: Sendable {
        package var clientID: String
        package var userID: String
        package var scope: String
        package var authTime: Date
        package var audience: String?
        package var organizationID: String?

        package init(
            clientID: String, userID: String, scope: String, authTime: Date, audience: String?, organizationID: String?
        ) {
            self.clientID = clientID
            self.userID = userID
            self.scope = scope
            self.authTime = authTime
            self.audience = audience
            self.organizationID = organizationID
        }
    }

    /// Revokes `family` at `now`; the marker, when one is needed, lasts as long as the longest access token of
    /// `configuration` can. Returns whether the family was live (a token revoked, or the marker stored).
    package static func revoke(
        _ writer: any StoreWriter, family: String, grant: Grant, now: Date, configuration: ServerConfiguration
    ) throws(StorageError) -> Bool {
        if let first = try writer.refreshTokens(familyID: family).first {
            return try writer.revokeRefreshTokens(.family(tokenHash: first.tokenHash), now: now) > 0
        }
        try writer.insertRefreshToken(
            marker(family: family, grant: grant, now: now, lifetime: configuration.longestAccessTokenLifetime))
        return true
    }

    /// The revoked row that carries the revocation of `family`, which has no refresh token: its hash is SHA-256 of a
    /// label and the family id, which no presented token hashes to (a token's hash is SHA-256 of 32 random bytes, and
    /// nobody knows a preimage), so it is never redeemed; it lasts `lifetime` seconds, revoked from `now`.
    package static func marker(family: String, grant: Grant, now: Date, lifetime: Int) -> RefreshToken {
        let until = now.addingTimeInterval(TimeInterval(lifetime))
        return RefreshToken(
            tokenHash: Digest.sha256(Array("passkeyd revoked family \(family)".utf8)), familyID: family,
            clientID: grant.clientID, userID: grant.userID, scope: grant.scope, authTime: grant.authTime,
            createdAt: now, absoluteExpiresAt: until, idleExpiresAt: until, revokedAt: now, audience: grant.audience,
            organizationID: grant.organizationID)
    }
}
