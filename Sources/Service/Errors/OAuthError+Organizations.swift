/// Auth0's answers about `organization` (its Authentication API's, word for word: SDKs and apps match them), the
/// organization's id or name in them being the request's own.
extension OAuthError {
    /// `organization` from a client whose `organization_usage` is `deny` (the default).
    package static func organizationNotAllowed() -> OAuthError {
        OAuthError(
            .invalidRequest, "parameter organization is not allowed for this client", logCode: "organization_denied")
    }

    /// `organization` on a grant that takes none (the refresh token keeps its family's; the SRP-6a and recovery
    /// grants log in no organization).
    package static func organizationNotAllowed(grant: String) -> OAuthError {
        OAuthError(
            .invalidRequest, "parameter organization is not allowed for this grant",
            logCode: "organization_not_for_grant", reason: grant)
    }

    /// No `organization` from a client whose `organization_usage` is `require`.
    package static func organizationRequired() -> OAuthError {
        OAuthError(
            .invalidRequest, "parameter organization is required for this client", logCode: "organization_required")
    }

    /// `organization` names no organization (an unknown id, an unknown name, or not an id or a name at all).
    package static func organizationInvalid(_ value: String) -> OAuthError {
        OAuthError(
            .invalidRequest, "parameter organization is invalid: \(value)", logCode: "organization_invalid",
            reason: value)
    }

    /// `organization` is a name, and `allow_organization_name_in_authentication_api` is off.
    package static func organizationMustBeID() -> OAuthError {
        OAuthError(
            .invalidRequest, "authorization request parameter organization must be an organization id",
            logCode: "organization_name_not_allowed")
    }

    /// The user who logged in is not a member of the session's organization.
    package static func notOrganizationMember(userID: String, organizationID: String) -> OAuthError {
        OAuthError(
            .accessDenied, "user \(userID) is not part of the \(organizationID) organization",
            logCode: "organization_not_member", reason: "\(userID) in \(organizationID)")
    }
}
