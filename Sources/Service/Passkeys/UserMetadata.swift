import JSON

/// The top-level `user_metadata` of `POST /passkey/register`, by Auth0's rules for sign-up metadata (its
/// Authentication API reference, `/dbconnections/signup` and `/passkey/register`: "an object containing no more
/// than ten properties. Property names can have a maximum of 100 characters, and property values must be strings of
/// no more than 500 characters"; its metadata field rules: no `.` or `$` in a name). Auth0.swift and Auth0.Android
/// send it as a `[String: String]` / `Map<String, String>`.
package enum UserMetadata {
    /// Most properties.
    package static let maximumProperties = 10
    /// Longest property name, in characters.
    package static let maximumNameLength = 100
    /// Longest property value, in characters.
    package static let maximumValueLength = 500

    /// The object in its RFC 8785 canonical form, as stored with the user (and carried by the sign-up session).
    /// - Throws: 400 `invalid_request` naming `user_metadata` (and the property) for what breaks the rules.
    package static func validated(_ value: JSONValue) throws -> String {
        guard let members = value.objectMembers else {
            throw OAuthError.invalidParameter("user_metadata", reason: "is not an object")
        }
        guard members.count <= maximumProperties else {
            throw OAuthError.invalidParameter(
                "user_metadata", reason: "has more than \(maximumProperties) properties")
        }
        for member in members {
            guard !member.key.isEmpty, member.key.count <= maximumNameLength,
                !member.key.contains("."), !member.key.contains("$")
            else {
                throw OAuthError.invalidParameter(
                    "user_metadata",
                    reason:
                        "has a property name that is empty, longer than \(maximumNameLength) characters or has . or $")
            }
            guard let text = member.value.stringValue, text.count <= maximumValueLength else {
                throw OAuthError.invalidParameter(
                    "user_metadata.\(member.key.prefix(maximumNameLength))",
                    reason: "is not a string of at most \(maximumValueLength) characters")
            }
        }
        guard let bytes = try? JCS.canonicalBytes(value) else {
            throw OAuthError.invalidParameter("user_metadata", reason: "is not canonicalisable")
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
