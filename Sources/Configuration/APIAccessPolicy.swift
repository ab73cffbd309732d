/// Which clients may ask for an API on a user's behalf (Auth0's API access policy for user flows,
/// `subject_type_authorization.user.policy`): the account API's is `account_api_access_policy`, `allowAll` unless
/// configured.
public enum APIAccessPolicy: String, Sendable, Equatable, CaseIterable, SettingChoice {
    /// Only a client with a client grant for the API, and only the scopes its grant lists: Auth0's default for the My
    /// Account API, so that a client the user signs in to (a partner's app, a third-party one) cannot manage the
    /// user's passkeys unless the operator said it may.
    case requireClientGrant = "require_client_grant"
    /// Every client, with every scope the API defines.
    case allowAll = "allow_all"
}
