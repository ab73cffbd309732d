extension Settings {
    /// `clients`, read by `ServerConfiguration.readClient`.
    package static let clients = RecordsSetting("clients", doc: "OAuth clients, see below")

    /// `apis`, read by `ServerConfiguration.readAPIs`.
    package static let apis = RecordsSetting(
        "apis", doc: "APIs (Auth0 \"resource servers\"): the audiences clients may ask tokens for, see below")

    /// `client_grants`, read by `ServerConfiguration.readClientGrants`.
    package static let clientGrants = RecordsSetting(
        "client_grants", doc: "which client may ask for which API, with which of its scopes, see below")

    /// `account_api_access_policy`: which clients may ask for the account API `<issuer>me/`.
    package static let accountAPIAccessPolicy = ChoiceSetting<APIAccessPolicy>(
        "account_api_access_policy", default: .allowAll,
        doc: """
            which clients may ask for the account API `<issuer>me/` (passkeys, recovery codes, the password, \
            `DELETE /me`): `allow_all`, every client, with every scope it defines; `require_client_grant`, only a \
            client with a `client_grants` entry for it, with the scopes that entry lists (Auth0's My Account API \
            default; `check-config` warns while several clients share `allow_all`)
            """)

    /// `default_audience`, read by `ServerConfiguration.readDefaultAudience`.
    package static let defaultAudience = TextSetting(
        "default_audience", default: "", note: "(the issuer)",
        doc: """
            the API of a token request that names no `audience` (Auth0's tenant setting): the issuer, \
            `device_keys.audience` or one of `apis`
            """)

    /// `allow_organization_name_in_authentication_api` (Auth0's tenant setting of that name).
    package static let allowOrganizationNameInAuthenticationAPI = BooleanSetting(
        "allow_organization_name_in_authentication_api", default: false,
        doc: """
            `organization` on `/passkey/register`, `/passkey/challenge` and `/oauth/token` may be an organization's \
            name as well as its id, and the ID and access tokens of a login in an organization carry `org_name` \
            besides `org_id` (Auth0's tenant setting); `false`: ids only, `org_id` only
            """)

    /// `realms`, read by `ServerConfiguration.readRealm`.
    package static let realms = RecordsSetting(
        "realms", requiredRecord: "realm",
        doc: """
            user namespaces (Auth0 "connections"), see below; with more than one, one is marked `default` (the realm of \
            requests that name none), else the configuration is refused; `check-config` warns about a single realm \
            not marked so
            """)

    static let records = [
        clients.descriptor, apis.descriptor, clientGrants.descriptor, accountAPIAccessPolicy.descriptor,
        defaultAudience.descriptor,
        allowOrganizationNameInAuthenticationAPI.descriptor, realms.descriptor,
    ]
}
