/// A login identifier of a user: unique within a realm for its kind.
public enum UserIdentifier: Sendable, Hashable {
    /// An email address.
    case email(String)
    /// A phone number.
    case phoneNumber(String)
    /// A username.
    case username(String)

    /// The kinds of identifier.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// `user_profile.email`.
        case email
        /// `user_profile.phone_number`.
        case phoneNumber = "phone_number"
        /// `user_profile.username`.
        case username
    }

    /// The identifier's kind.
    public var kind: Kind {
        switch self {
        case .email: .email
        case .phoneNumber: .phoneNumber
        case .username: .username
        }
    }

    /// The identifier's value.
    public var value: String {
        switch self {
        case .email(let value), .phoneNumber(let value), .username(let value): value
        }
    }

    /// The uniqueness constraint that guards this kind of identifier.
    public var constraint: StorageError.Constraint {
        switch self {
        case .email: .userEmail
        case .phoneNumber: .userPhoneNumber
        case .username: .userUsername
        }
    }
}
