import Foundation

/// A pending passkey ceremony: created by `/passkey/register` or `/passkey/challenge`, consumed once by
/// `/oauth/token`.
public struct AuthSession: Sendable, Hashable {
    /// Which ceremony the session is for.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Registration of a new user and credential.
        case signup
        /// Authentication with an existing credential.
        case login
    }

    /// The lookup key given by the server (it may be a digest of the `auth_session` value; stored as given).
    public var id: String
    /// The client the ceremony was started for.
    public var clientID: String
    /// The realm of the ceremony.
    public var realm: String
    /// Signup or login.
    public var kind: Kind
    /// The challenge sent to the client (WebAuthn L3 §13.4.3: at least 16 random bytes).
    public var challenge: [UInt8]
    /// Signup only: the profile the user will be created with.
    public var email: String?
    /// Signup only: phone number of the profile.
    public var phoneNumber: String?
    /// Signup only: username of the profile.
    public var username: String?
    /// Signup only: display name of the profile.
    public var name: String?
    /// Signup only: the user handle sent as `user.id` in the creation options.
    public var userHandle: [UInt8]?
    /// When the session was created.
    public var createdAt: Date
    /// When the session stops being usable.
    public var expiresAt: Date
    /// Signup only: the profile claims the user will be created with.
    public var profile: ProfileAttributes
    /// The organization the ceremony is made in (`organization`), if any: a login's user must be a member, a
    /// sign-up's becomes one, and the tokens carry it. Carried by the sealed `auth_session` only (the stored
    /// sessions of `auth_sessions` are never in one).
    public var organizationID: String?
    /// That organization's name, for the tokens' `org_name` (`allow_organization_name_in_authentication_api`).
    public var organizationName: String?

    /// Creates an auth-session record.
    public init(
        id: String, clientID: String, realm: String, kind: Kind, challenge: [UInt8], email: String? = nil,
        phoneNumber: String? = nil, username: String? = nil, name: String? = nil, userHandle: [UInt8]? = nil,
        createdAt: Date, expiresAt: Date, profile: ProfileAttributes = ProfileAttributes(),
        organizationID: String? = nil, organizationName: String? = nil
    ) {
        self.id = id
        self.clientID = clientID
        self.realm = realm
        self.kind = kind
        self.challenge = challenge
        self.email = email
        self.phoneNumber = phoneNumber
        self.username = username
        self.name = name
        self.userHandle = userHandle
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.profile = profile
        self.organizationID = organizationID
        self.organizationName = organizationName
    }
}
