/// A realm (an Auth0 "connection"): a namespace of users and the identifiers they sign up with.
public struct RealmConfiguration: Sendable, Equatable {
    /// Whether an identifier is asked for at sign-up.
    public enum Requirement: String, Sendable, Equatable {
        case required, optional, off
    }

    /// Bounds for usernames.
    public struct UsernamePolicy: Sendable, Equatable {
        public var minLength: Int
        public var maxLength: Int
    }

    public var name: String
    public var isDefault: Bool
    public var email: Requirement
    public var phoneNumber: Requirement
    public var username: Requirement
    public var usernamePolicy: UsernamePolicy
}
