import JSON
import Storage

/// The claims about a user that a scope releases (OIDC Core §5.4), the one rule for the ID token and `/userinfo`:
/// `profile` releases `name`, `preferred_username`, `given_name`, `family_name`, `nickname`, `picture` and, when
/// `tokens.user_metadata_claim` is configured, `user_metadata` under that namespaced claim; `email` and `phone`
/// release the address and the number, each marked unverified (passkeyd runs no mail or SMS loop).
package struct UserClaims: Sendable {
    package var name: String?
    package var preferredUsername: String?
    package var givenName: String?
    package var familyName: String?
    package var nickname: String?
    package var picture: String?
    package var email: String?
    package var phoneNumber: String?
    /// `(claim name, serialised JSON object)`.
    package var userMetadata: (claim: String, json: String)?

    /// The claims of `user` that `scope` releases.
    package init(user: User, scope: some Sequence<String>, metadataClaim: String?) {
        let scope = Set(scope)
        if scope.contains("profile") {
            name = user.name ?? user.username
            preferredUsername = user.username
            givenName = user.profile.givenName
            familyName = user.profile.familyName
            nickname = user.profile.nickname
            picture = user.profile.picture
            if let metadataClaim, let metadata = user.profile.userMetadata {
                userMetadata = (metadataClaim, metadata)
            }
        }
        if scope.contains("email") { email = user.email }
        if scope.contains("phone") { phoneNumber = user.phoneNumber }
    }

    /// The claims as JSON members, standard claims first (for `/userinfo`).
    package var members: [JSONMember] {
        var members: [JSONMember] = []
        func add(_ key: String, _ value: String?) {
            if let value { members.append(JSONMember(key: key, value: .string(value))) }
        }
        add("name", name)
        add("preferred_username", preferredUsername)
        add("given_name", givenName)
        add("family_name", familyName)
        add("nickname", nickname)
        add("picture", picture)
        if let email {
            add("email", email)
            members.append(JSONMember(key: "email_verified", value: .bool(false)))
        }
        if let phoneNumber {
            add("phone_number", phoneNumber)
            members.append(JSONMember(key: "phone_number_verified", value: .bool(false)))
        }
        if let userMetadata, let value = try? JSONValue(parsing: Array(userMetadata.json.utf8)) {
            members.append(JSONMember(key: userMetadata.claim, value: value))
        }
        return members
    }
}
