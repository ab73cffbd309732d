import Foundation

/// An Auth0 organization: a named group of users a login or a sign-up may be made in (`organization` on the
/// passkey endpoints and the token grant), whose id — and, when the server allows it, name — the tokens of such a
/// login carry (`org_id`, `org_name`).
public struct Organization: Sendable, Hashable {
    /// `org_` and 16 random letters and digits, as Auth0 shapes organization ids; never changes.
    public var id: String
    /// The unique logical name (Auth0's rules: 1–50 lower-case letters, digits, `-` and `_`).
    public var name: String
    /// A name for people, if set.
    public var displayName: String?
    /// When the organization was created.
    public var createdAt: Date

    /// Creates an organization record.
    public init(id: String, name: String, displayName: String? = nil, createdAt: Date) {
        self.id = id
        self.name = name
        self.displayName = displayName
        self.createdAt = createdAt
    }
}
