import Foundation

/// RFC 7519 §2 NumericDate: seconds since the epoch. We write whole seconds (truncated).
enum NumericDate {
    /// 2^53: beyond this a JSON number no longer holds every integer exactly (RFC 7493 §2.2).
    private static let limit: Double = 9_007_199_254_740_992

    /// Whole seconds for `date`, or `.invalidClaim` if it cannot be written exactly.
    static func seconds(_ date: Date, claim: String) throws(TokenError) -> Int64 {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard seconds.isFinite, seconds.magnitude < limit, let whole = Int64(exactly: seconds) else {
            throw TokenError(.invalidClaim, "\(claim) \(date) is not representable as a NumericDate")
        }
        return whole
    }

    /// `iat` and `exp` (RFC 7519 §4.1.6, §4.1.4) as whole seconds; `.invalidLifetime` unless `exp > iat`.
    static func lifetime(issuedAt: Date, expiresAt: Date) throws(TokenError) -> (iat: Int64, exp: Int64) {
        let iat = try seconds(issuedAt, claim: "iat")
        let exp = try seconds(expiresAt, claim: "exp")
        guard exp > iat else { throw TokenError(.invalidLifetime, "exp must be after iat") }
        return (iat, exp)
    }

    /// An optional date claim (`auth_time`, OIDC Core §2) as a member, `nil` when absent.
    static func member(_ date: Date?, claim: String) throws(TokenError) -> JSONObjectWriter.Member? {
        guard let date else { return nil }
        return .integer(try seconds(date, claim: claim))
    }
}
