import Foundation

/// The claims of an OpenID Connect ID token (OIDC Core 1.0 §2), signed with `typ` "JWT".
///
/// Profile claims (`email`, `phone_number`, `name`, …) are set by the caller according to the granted
/// scopes (OIDC Core §5.4); whatever is `nil` is omitted.
public struct IDTokenClaims: JWTClaims {
    /// OIDC Core does not register a `typ`; "JWT" is what relying parties expect (RFC 7519 §5.1).
    public static let type = "JWT"

    /// `iss`.
    public var issuer: String
    /// `sub`: the user's stable identifier.
    public var subject: String
    /// `aud`: the client's `client_id` (OIDC Core §2).
    public var audience: String
    /// `iat`.
    public var issuedAt: Date
    /// `exp`.
    public var expiresAt: Date
    /// `auth_time`: when the user authenticated.
    public var authTime: Date?
    /// `nonce`: echoed from the authentication request, if one was sent.
    public var nonce: String?
    /// `amr` (RFC 8176).
    public var authenticationMethods: [String]
    /// `email` (scope `email`).
    public var email: String?
    /// `email_verified` (scope `email`).
    public var emailVerified: Bool?
    /// `phone_number` (scope `phone`).
    public var phoneNumber: String?
    /// `phone_number_verified` (scope `phone`).
    public var phoneNumberVerified: Bool?
    /// `name` (scope `profile`).
    public var name: String?
    /// `given_name` (scope `profile`, OIDC Core §5.1).
    public var givenName: String?
    /// `family_name` (scope `profile`).
    public var familyName: String?
    /// `nickname` (scope `profile`).
    public var nickname: String?
    /// `picture` (scope `profile`): an https URL.
    public var picture: String?
    /// Namespaced claims (OIDC Core §5.1.2: collision-resistant names) with their JSON values, written as given:
    /// the caller passes serialised JSON only.
    public var namespacedClaims: [(name: String, json: [UInt8])] = []
    /// `org_id` (Auth0): the organization the login was made in, if any.
    public var organizationID: String?
    /// `sid` (OIDC Front-Channel Logout 1.0 §3, Back-Channel Logout 1.0 §2.4; Auth0's ID tokens carry it): the
    /// session the login opened, the same value as its access tokens' `sid`, so that a relying party can tell its
    /// logins apart and match the session a logout names. `nil` for none.
    public var sessionID: String?
    /// `org_name` (Auth0, with `allow_organization_name_in_authentication_api`): that organization's name.
    public var organizationName: String?

    /// Collects the claims. Nothing is validated until `payload()`.
    public init(
        issuer: String, subject: String, audience: String, issuedAt: Date, expiresAt: Date, authTime: Date? = nil,
        nonce: String? = nil, authenticationMethods: [String] = [], email: String? = nil, emailVerified: Bool? = nil,
        phoneNumber: String? = nil, phoneNumberVerified: Bool? = nil, name: String? = nil
    ) {
        self.issuer = issuer
        self.subject = subject
        self.audience = audience
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.authTime = authTime
        self.nonce = nonce
        self.authenticationMethods = authenticationMethods
        self.email = email
        self.emailVerified = emailVerified
        self.phoneNumber = phoneNumber
        self.phoneNumberVerified = phoneNumberVerified
        self.name = name
    }

    /// The OIDC Core §2 payload.
    /// - Throws: `.invalidClaim` for an empty iss/sub/aud, `.invalidLifetime` unless `exp > iat`.
    public func payload() throws(TokenError) -> [UInt8] {
        // OIDC Core §2: iss, sub, aud, exp and iat are REQUIRED.
        guard !issuer.isEmpty, !subject.isEmpty, !audience.isEmpty else {
            throw TokenError(.invalidClaim, "iss, sub and aud must be non-empty")
        }
        let (iat, exp) = try NumericDate.lifetime(issuedAt: issuedAt, expiresAt: expiresAt)
        var writer = JSONObjectWriter()
        writer.set("iss", .string(issuer))
        writer.set("sub", .string(subject))
        writer.set("aud", .string(audience))
        writer.set("iat", .integer(iat))
        writer.set("exp", .integer(exp))
        writer.set("auth_time", try NumericDate.member(authTime, claim: "auth_time"))
        writer.set("nonce", nonce.map { .string($0) })
        writer.set("amr", authenticationMethods.isEmpty ? nil : .strings(authenticationMethods))
        writer.set("email", email.map { .string($0) })
        writer.set("email_verified", emailVerified.map { .bool($0) })
        writer.set("phone_number", phoneNumber.map { .string($0) })
        writer.set("phone_number_verified", phoneNumberVerified.map { .bool($0) })
        writer.set("name", name.map { .string($0) })
        writer.set("given_name", givenName.map { .string($0) })
        writer.set("family_name", familyName.map { .string($0) })
        writer.set("nickname", nickname.map { .string($0) })
        writer.set("picture", picture.map { .string($0) })
        writer.set("org_id", organizationID.map { .string($0) })
        writer.set("sid", try SessionIDClaim.member(sessionID))
        writer.set("org_name", organizationName.map { .string($0) })
        for claim in namespacedClaims { writer.set(claim.name, .raw(claim.json)) }
        return writer.bytes()
    }
}
