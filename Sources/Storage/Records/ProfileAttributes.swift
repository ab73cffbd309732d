/// The profile a user gives at sign-up beyond identifiers and display name (OIDC Core §5.1 standard claims and
/// Auth0's `user_metadata`), validated and bounded by the server before it is stored.
public struct ProfileAttributes: Sendable, Hashable {
    /// `given_name`.
    public var givenName: String?
    /// `family_name`.
    public var familyName: String?
    /// `nickname`.
    public var nickname: String?
    /// `picture`: an https URL.
    public var picture: String?
    /// `user_metadata`: a JSON object, serialised (the server bounds its size and depth).
    public var userMetadata: String?

    /// Creates the attributes; all absent by default.
    public init(
        givenName: String? = nil, familyName: String? = nil, nickname: String? = nil, picture: String? = nil,
        userMetadata: String? = nil
    ) {
        self.givenName = givenName
        self.familyName = familyName
        self.nickname = nickname
        self.picture = picture
        self.userMetadata = userMetadata
    }
}
