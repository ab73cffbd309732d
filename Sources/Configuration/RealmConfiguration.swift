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
    /// `related_origins`: web origins of other domains whose ceremonies for the RP ID are accepted in this realm
    /// (WebAuthn L3 §5.11), published at `GET /.well-known/webauthn` for browsers' related origins validation
    /// procedure (§5.11.1). Validated at load by `OriginRules.validateRelated`.
    public var relatedOrigins: [String] = []
}
