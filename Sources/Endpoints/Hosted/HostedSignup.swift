import Configuration
import JSON

/// How the hosted page's one `identifier` field becomes a sign-up's `user_profile`: it is the identifier the realm
/// asks for first (a required one, else an optional one, in the order email, phone number, username), validated then
/// by the realm's rules as `/passkey/register` validates it (`UserProfile`).
package enum HostedSignup {
    /// The `user_profile` member the field fills for `realm`.
    package static func identifierField(_ realm: RealmConfiguration?) -> String {
        guard let realm else { return "email" }
        let fields: [(String, RealmConfiguration.Requirement)] = [
            ("email", realm.email), ("phone_number", realm.phoneNumber), ("username", realm.username),
        ]
        return fields.first { $0.1 == .required }?.0 ?? fields.first { $0.1 == .optional }?.0 ?? "email"
    }

    /// The `user_profile` of a sign-up with `identifier` in `realm`.
    package static func userProfile(identifier: String, realm: RealmConfiguration) -> JSONValue {
        .object([JSONMember(key: identifierField(realm), value: .string(identifier))])
    }
}
