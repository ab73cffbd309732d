import Foundation

/// The claims of an access token in the JWT profile of RFC 9068 (§2.2), signed with `typ` "at+jwt".
public struct AccessTokenClaims: JWTClaims, Hashable {
    /// RFC 9068 §2.1: the `typ` header of access tokens.
    public static let type = "at+jwt"

    /// `iss`: the authorization server's issuer identifier.
    public var issuer: String
    /// `sub`: the user.
    public var subject: String
    /// `aud`: the resource server(s); written as a string when there is one.
    public var audience: [String]
    /// `client_id`: the client the token was issued to.
    public var clientID: String
    /// `scope`: space-separated scopes (RFC 9068 §2.2.3); omitted when empty.
    public var scope: [String]
    /// `iat`.
    public var issuedAt: Date
    /// `exp`.
    public var expiresAt: Date
    /// `jti`: a unique identifier drawn by the caller.
    public var jwtID: String
    /// `auth_time`: when the user last authenticated (OIDC Core §2), if known.
    public var authTime: Date?
    /// `amr`: authentication methods (RFC 8176), e.g. ["hwk", "user"] after a user-verified passkey.
    public var authenticationMethods: [String]
    /// `cnf.jkt` (RFC 9449 §6.1): the RFC 7638 thumbprint of the DPoP key the token is bound to, if any.
    public var confirmationThumbprint: String?
    /// `sid` (OIDC Front-Channel Logout §3, as OIDC uses it in ID tokens): the login session the token belongs to,
    /// the id of its refresh-token family when it has one; what lets the issuer refuse the token once that
    /// session is revoked.
    public var sessionID: String?
    /// `org_id` (Auth0): the organization the login was made in, if any.
    public var organizationID: String?
    /// `org_name` (Auth0, with `allow_organization_name_in_authentication_api`): that organization's name.
    public var organizationName: String?

    /// `gty` (Auth0's claim): `client-credentials` on a machine's token (RFC 6749 §4.4), whose `sub` is no user's.
    public var grantType: String?

    /// Collects the claims. Nothing is validated until `payload()`.
    public init(
        issuer: String, subject: String, audience: [String], clientID: String, scope: [String],
        issuedAt: Date, expiresAt: Date, jwtID: String, authTime: Date? = nil, authenticationMethods: [String] = [],
        confirmationThumbprint: String? = nil, sessionID: String? = nil, organizationID: String? = nil,
        organizationName: String? = nil
    ) {
        self.issuer = issuer
        self.subject = subject
        self.audience = audience
        self.clientID = clientID
        self.scope = scope
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.jwtID = jwtID
        self.authTime = authTime
        self.authenticationMethods = authenticationMethods
        self.confirmationThumbprint = confirmationThumbprint
        self.sessionID = sessionID
        self.organizationID = organizationID
        self.organizationName = organizationName
    }

    /// The RFC 9068 payload.
    /// - Throws: `.invalidClaim` for an empty required claim, `.invalidLifetime` unless `exp > iat`.
    public func payload() throws(TokenError) -> [UInt8] {
        // RFC 9068 §2.2: iss, exp, aud, sub, client_id, iat and jti are REQUIRED.
        guard !issuer.isEmpty, !subject.isEmpty, !audience.isEmpty, !audience.contains(""), !clientID.isEmpty,
            !jwtID.isEmpty
        else {
            throw TokenError(.invalidClaim, "iss, sub, aud, client_id and jti must be non-empty")
        }
        let (iat, exp) = try NumericDate.lifetime(issuedAt: issuedAt, expiresAt: expiresAt)
        var writer = JSONObjectWriter()
        writer.set("iss", .string(issuer))
        writer.set("sub", .string(subject))
        writer.set("aud", audience.count == 1 ? .string(audience[0]) : .strings(audience))
        writer.set("client_id", .string(clientID))
        writer.set("scope", scope.isEmpty ? nil : .string(scope.joined(separator: " ")))
        writer.set("iat", .integer(iat))
        writer.set("exp", .integer(exp))
        writer.set("jti", .string(jwtID))
        writer.set("auth_time", try NumericDate.member(authTime, claim: "auth_time"))
        writer.set("amr", authenticationMethods.isEmpty ? nil : .strings(authenticationMethods))
        // RFC 9449 §6.1 / RFC 7800 §3.1: the confirmation claim names the key by its thumbprint.
        if let confirmationThumbprint {
            guard !confirmationThumbprint.isEmpty else { throw TokenError(.invalidClaim, "cnf.jkt must be non-empty") }
            var confirmation = JSONObjectWriter()
            confirmation.set("jkt", .string(confirmationThumbprint))
            writer.set("cnf", .raw(confirmation.bytes()))
        }
        writer.set("sid", try SessionIDClaim.member(sessionID))
        writer.set("org_id", organizationID.map { .string($0) })
        writer.set("org_name", organizationName.map { .string($0) })
        writer.set("gty", grantType.map { .string($0) })
        return writer.bytes()
    }
}
