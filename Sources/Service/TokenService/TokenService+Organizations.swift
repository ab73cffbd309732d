extension TokenService {
    /// `org_name` of a grant's tokens: the organization's name when `allow_organization_name_in_authentication_api`
    /// is on (Auth0: then "access and ID tokens automatically include both `org_name` and `org_id`").
    func organizationNameClaim(_ grant: Grant) -> String? {
        configuration.allowOrganizationNameInAuthenticationAPI ? grant.organizationName : nil
    }
}
