/// `sid`, the session a token belongs to (OIDC Front-Channel Logout 1.0 §3; passkeyd's refresh family): written the
/// same way, by the same rule, in access tokens and ID tokens.
enum SessionIDClaim {
    /// The `sid` member for `sessionID`; nil (the claim left out) for none.
    /// - Throws: `.invalidClaim` for an empty one.
    static func member(_ sessionID: String?) throws(TokenError) -> JSONObjectWriter.Member? {
        guard let sessionID else { return nil }
        guard !sessionID.isEmpty else { throw TokenError(.invalidClaim, "sid must be non-empty") }
        return .string(sessionID)
    }
}
