import Configuration
import Storage

/// What `organization` asks of a passkey request (`/passkey/register`, `/passkey/challenge`, the webauthn grant),
/// judged against the client's `organization_usage` (Auth0's client setting) before the store is read:
/// - `deny` (the default): a request naming one is refused (`parameter organization is not allowed for this
///   client`);
/// - `require`: a request naming none is refused (`parameter organization is required for this client`);
/// - a name, unless `allow_organization_name_in_authentication_api` is on, is refused (`… must be an organization
///   id`); a value that is neither an id nor a name is an invalid organization.
/// Then `resolve` finds the organization: an unknown one is refused (`parameter organization is invalid: …`).
package enum OrganizationRequest: Sendable, Equatable {
    /// An organization id (`org_…`).
    case id(String)
    /// An organization name (only with `allow_organization_name_in_authentication_api`).
    case name(String)

    /// The organization `value` (the parameter as sent, `nil` when absent) asks for, `nil` for none.
    /// - Throws: 400 `invalid_request` with Auth0's description (see the type).
    package static func checked(_ value: String?, client: ClientConfiguration, configuration: ServerConfiguration)
        throws -> OrganizationRequest?
    {
        guard let value else {
            if client.organizationUsage == .require { throw OAuthError.organizationRequired() }
            return nil
        }
        guard client.organizationUsage != .deny else { throw OAuthError.organizationNotAllowed() }
        if OrganizationNaming.isID(value) { return .id(value) }
        // Names are stored lower-case; Auth0 matches them whatever the case (its SDKs compare org_name so too).
        let name = value.lowercased()
        guard OrganizationNaming.isValidName(name) else { throw OAuthError.organizationInvalid(value) }
        guard configuration.allowOrganizationNameInAuthenticationAPI else { throw OAuthError.organizationMustBeID() }
        return .name(name)
    }

    /// The organization asked for.
    /// - Throws: 400 `invalid_request` (`parameter organization is invalid: …`) when there is none.
    package func resolve(_ reader: any StoreReader) throws -> Organization {
        switch self {
        case .id(let id):
            guard let found = try reader.organization(id: id) else { throw OAuthError.organizationInvalid(id) }
            return found
        case .name(let name):
            guard let found = try reader.organization(name: name) else { throw OAuthError.organizationInvalid(name) }
            return found
        }
    }

    /// Whether this asks for the organization with `id` and `name` (a session's).
    package func names(id: String?, name: String?) -> Bool {
        switch self {
        case .id(let asked): asked == id
        case .name(let asked): asked == name
        }
    }
}
