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
}
