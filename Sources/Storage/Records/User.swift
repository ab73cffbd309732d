import Foundation

/// A person known to the relying party, within one realm (Auth0 "connection").
public struct User: Sendable, Hashable {
    /// The server-assigned user id (the `sub` of tokens).
    public var id: String
    /// The WebAuthn user handle (`user.id` of the creation options): 32 random bytes, unique across realms.
    public var userHandle: [UInt8]
    /// The realm the user signed up in; identifiers are unique per realm.
    public var realm: String
    /// Email address, normalised by the server; unique per realm when present.
    public var email: String?
    /// Phone number (E.164), normalised by the server; unique per realm when present.
    public var phoneNumber: String?
    /// Username, normalised by the server; unique per realm when present.
    public var username: String?
    /// Display name, not unique.
    public var name: String?
    /// When the user was created (server time).
    public var createdAt: Date
    /// The profile claims given at sign-up.
    public var profile: ProfileAttributes

    /// Creates a user record.
    public init(
        id: String, userHandle: [UInt8], realm: String, email: String? = nil, phoneNumber: String? = nil,
        username: String? = nil, name: String? = nil, createdAt: Date, profile: ProfileAttributes = ProfileAttributes()
    ) {
        self.id = id
        self.userHandle = userHandle
        self.realm = realm
        self.email = email
        self.phoneNumber = phoneNumber
        self.username = username
        self.name = name
        self.createdAt = createdAt
        self.profile = profile
    }

    /// The identifier of `kind` this user has, if any.
    public func identifier(_ kind: UserIdentifier.Kind) -> UserIdentifier? {
        switch kind {
        case .email: email.map(UserIdentifier.email)
        case .phoneNumber: phoneNumber.map(UserIdentifier.phoneNumber)
        case .username: username.map(UserIdentifier.username)
        }
    }

    /// Every identifier this user has (email, phone number, username), in that order.
    public var identifiers: [UserIdentifier] {
        UserIdentifier.Kind.allCases.compactMap { identifier($0) }
    }
}
