import Configuration
import Foundation
import JSON
import Storage

/// `user_profile` of `POST /passkey/register`, validated against the realm's identifier rules and normalised
/// (lower-case email and username, E.164 phone number) before anything is stored or looked up.
package struct UserProfile: Sendable, Equatable {
    package var email: String?
    package var phoneNumber: String?
    package var username: String?
    /// The display name (not an identifier, not unique).
    package var name: String?
    /// `given_name`, `family_name`, `nickname` and `picture` (Auth0's signup profile), and `user_metadata`, which
    /// comes from the request's top level (`UserMetadata`), never from `user_profile`.
    package var attributes = ProfileAttributes()

    /// Longest `picture` URL, in bytes.
    package static let maximumPictureBytes = 2048

    /// The identifiers present, email first.
    package var identifiers: [UserIdentifier] {
        [
            email.map(UserIdentifier.email), phoneNumber.map(UserIdentifier.phoneNumber),
            username.map(UserIdentifier.username),
        ]
        .compactMap { $0 }
    }

    /// Reads `user_profile` for `realm`.
    /// - Throws: 400 `invalid_request` for an unknown or disabled member (`user_metadata` among them: Auth0 takes it
    ///   at the request's top level and refuses members of `user_profile` it does not define), a missing required
    ///   identifier, an invalid identifier, or no identifier at all.
    package init(_ value: JSONValue, realm: RealmConfiguration) throws {
        guard let members = value.objectMembers else {
            throw OAuthError.invalidParameter("user_profile", reason: "not an object")
        }
        var seen: [String: String] = [:]
        for member in members {
            guard member.key != "user_metadata" else {
                throw OAuthError(
                    .invalidRequest,
                    "Invalid parameter: user_profile.user_metadata (send user_metadata at the top level of the request)",
                    logCode: "invalid_parameter", reason: "user_profile.user_metadata is not a profile field")
            }
            let enabled: Bool =
                switch member.key {
                case "email": realm.email != .off
                case "phone_number": realm.phoneNumber != .off
                case "username": realm.username != .off
                case "name", "given_name", "family_name", "nickname", "picture": true
                default: false
                }
            guard enabled else {
                throw OAuthError.invalidParameter(
                    "user_profile", reason: "member \(member.key) is not accepted by realm \(realm.name)")
            }
            if member.value.isNull { continue }
            guard let text = member.value.stringValue else {
                throw OAuthError.invalidParameter("user_profile.\(member.key)", reason: "not a string")
            }
            seen[member.key] = text
        }
        email = try seen["email"].map(Self.normalizedEmail)
        phoneNumber = try seen["phone_number"].map(Self.normalizedPhoneNumber)
        username = try seen["username"].map { text throws in
            try Self.normalizedUsername(text, policy: realm.usernamePolicy)
        }
        name = try seen["name"].map { text throws in try Self.validatedName(text) }
        attributes.givenName = try seen["given_name"].map { text throws in try Self.validatedName(text, "given_name") }
        attributes.familyName = try seen["family_name"].map { text throws in
            try Self.validatedName(text, "family_name")
        }
        attributes.nickname = try seen["nickname"].map { text throws in try Self.validatedName(text, "nickname") }
        attributes.picture = try seen["picture"].map(Self.validatedPicture)
        for (field, requirement, present) in [
            ("email", realm.email, email != nil), ("phone_number", realm.phoneNumber, phoneNumber != nil),
            ("username", realm.username, username != nil),
        ] where requirement == .required && !present {
            throw OAuthError.missingParameter("user_profile.\(field)")
        }
        guard email != nil || phoneNumber != nil || username != nil else {
            throw OAuthError.missingParameter("user_profile identifier")
        }
    }

    /// An address `local@domain` (RFC 5321 §4.5.3.1 lengths; a dot-separated domain of LDH labels), lower-cased.
    package static func normalizedEmail(_ text: String) throws -> String {
        let email = text.lowercased()
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.utf8.count <= 254, parts.count == 2, let local = parts.first, let domain = parts.last,
            !local.isEmpty, local.utf8.count <= 64, !local.hasPrefix("."), !local.hasSuffix("."), !local.contains(".."),
            // RFC 5322 §3.2.3 atext and dots only: no quoted local parts, no spaces, no control characters.
            local.unicodeScalars.allSatisfy({
                $0.isASCII && (isAlphanumeric($0) || "!#$%&'*+/=?^_`{|}~.-".unicodeScalars.contains($0))
            }),
            isDomain(domain)
        else {
            throw OAuthError.invalidParameter("user_profile.email", reason: "is not an email address")
        }
        return email
    }

    /// ITU-T E.164: `+` then 2 to 15 digits, the first not 0. Spaces, hyphens, dots and parentheses that people
    /// type are dropped first.
    package static func normalizedPhoneNumber(_ text: String) throws -> String {
        let compact = String(text.unicodeScalars.filter { !" -.()".unicodeScalars.contains($0) }.map(Character.init))
        let digits = compact.dropFirst()
        guard compact.hasPrefix("+"), (2...15).contains(digits.count), digits.first != "0",
            digits.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) })
        else {
            throw OAuthError.invalidParameter("user_profile.phone_number", reason: "is not an E.164 number")
        }
        return compact
    }

    /// The username policy: lower-cased; letters, digits and `_ . - +`, starting with a letter or digit, within
    /// the realm's length bounds. No `@`, so a username can never pass for an email address.
    package static func normalizedUsername(_ text: String, policy: RealmConfiguration.UsernamePolicy) throws -> String {
        let username = text.lowercased()
        guard (policy.minLength...policy.maxLength).contains(username.count),
            let first = username.unicodeScalars.first, isAlphanumeric(first),
            username.unicodeScalars.allSatisfy({ isAlphanumeric($0) || "_.-+".unicodeScalars.contains($0) })
        else {
            throw OAuthError.invalidParameter("user_profile.username", reason: "breaks the username policy")
        }
        return username
    }

    /// A name (`name`, `given_name`, `family_name`, `nickname`): 1 to 256 characters, no control characters.
    package static func validatedName(_ text: String, _ field: String = "name") throws -> String {
        guard !text.isEmpty, text.count <= 256,
            !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw OAuthError.invalidParameter(
                "user_profile.\(field)", reason: "is empty, too long or has control characters")
        }
        return text
    }

    /// `picture` (OIDC Core §5.1): an absolute https URL with a host, at most 2048 bytes, no space or control
    /// character, so that a page showing it never loads it over plain http or from a `javascript:` URL.
    package static func validatedPicture(_ text: String) throws -> String {
        guard text.utf8.count <= maximumPictureBytes, text.utf8.allSatisfy({ (0x21...0x7E).contains($0) }),
            let url = URLComponents(string: text), url.scheme?.lowercased() == "https", url.host?.isEmpty == false
        else {
            throw OAuthError.invalidParameter(
                "user_profile.picture", reason: "is not an https URL of 2048 bytes or less")
        }
        return text
    }

    private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }

    /// At least two labels of letters, digits and hyphens (RFC 1035 §2.3.1), none empty or over 63 characters.
    private static func isDomain(_ domain: Substring) -> Bool {
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && domain.utf8.count <= 253
            && labels.allSatisfy { label in
                !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                    && label.unicodeScalars.allSatisfy { isAlphanumeric($0) || $0 == "-" }
            }
    }
}
