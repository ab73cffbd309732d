import Configuration
import Foundation
import JSON
import Tokens

/// Token introspection (RFC 7662): whether an access token this issuer minted still stands, for a resource server
/// that must know of a revocation before the token expires (a JWT alone says only that it was valid when minted).
///
/// The caller is a confidential client, authenticated (§2.1; `ClientResolution`). It may introspect an access token
/// issued to itself, or one for an API whose `introspection_clients` lists it (the API's resource servers). Any other
/// token, one that does not verify, has expired, or whose session has ended (`TokenService.revocation`, the rule
/// passkeyd's own endpoints apply), is `{"active": false}` alike (§2.2: the answer tells nothing more). Refresh tokens
/// are answered inactive too: they are their client's secret, and never presented to a resource server.
package struct TokenIntrospection: Sendable {
    package let context: ServerContext

    package init(context: ServerContext) {
        self.context = context
    }

    /// The RFC 7662 §2.2 answer for `token`, as `caller` may see it.
    package func introspect(_ token: String, caller: ClientConfiguration) async throws -> JSONValue {
        guard let claims = try await context.tokens.mintedAccessTokenClaims(token),
            Self.may(caller, see: claims, in: context.configuration)
        else { return Self.inactive }
        // A machine's token (client_credentials) has no user and no session: it stands until it expires.
        let isMachine =
            claims.subject == TokenService.machineSubject(clientID: claims.clientID) && claims.sessionID == nil
        if !isMachine,
            try await context.tokens.revocation(
                userID: claims.subject, familyID: claims.sessionID, issuedAt: claims.issuedAt) != nil
        {
            return Self.inactive
        }
        return Self.active(claims)
    }

    /// The answer as RFC 9701 §5 signs it for a resource server that asked for
    /// `application/token-introspection+jwt`: `iss` this server, `aud` the caller, `iat` now and the RFC 7662 answer as
    /// `token_introspection`, typed `token-introspection+jwt` and signed with the caller's
    /// `introspection_signed_response_alg` (RFC 9701 §6; RS256 by default) by the key the JWKS publishes.
    package func signedAnswer(_ answer: JSONValue, caller: ClientConfiguration) async throws -> String {
        let claims = IntrospectionResponseClaims(
            issuer: context.configuration.issuer, audience: caller.clientID, issuedAt: context.clock.now(),
            introspection: answer)
        return try await context.tokens.currentSigners().signer(caller.introspectionSigningAlgorithm).sign(claims)
    }

    /// `{"active": false}`.
    static let inactive = JSONValue.object([JSONMember(key: "active", value: .bool(false))])

    /// Whether `caller` may introspect `claims`: its own token, or one for an API it is a resource server of.
    static func may(_ caller: ClientConfiguration, see claims: AccessTokenClaims, in configuration: ServerConfiguration)
        -> Bool
    {
        if claims.clientID == caller.clientID { return true }
        return claims.audience.contains { audience in
            configuration.configuredAPI(identifier: audience)?.introspectionClients.contains(caller.clientID) ?? false
        }
    }

    /// The §2.2 members of an active token: what its claims say, `token_type` `DPoP` for a bound one (RFC 9449 §6.2,
    /// with `cnf`), `Bearer` otherwise.
    static func active(_ claims: AccessTokenClaims) -> JSONValue {
        var members: [JSONMember] = [
            JSONMember(key: "active", value: .bool(true)),
            JSONMember(key: "iss", value: .string(claims.issuer)),
            JSONMember(key: "sub", value: .string(claims.subject)),
            JSONMember(
                key: "aud",
                value: claims.audience.count == 1
                    ? .string(claims.audience[0]) : .array(claims.audience.map { .string($0) })),
            JSONMember(key: "client_id", value: .string(claims.clientID)),
            JSONMember(key: "scope", value: .string(claims.scope.joined(separator: " "))),
            JSONMember(key: "token_type", value: .string(claims.confirmationThumbprint == nil ? "Bearer" : "DPoP")),
            JSONMember(key: "iat", value: .number(String(Int64(claims.issuedAt.timeIntervalSince1970)))),
            JSONMember(key: "exp", value: .number(String(Int64(claims.expiresAt.timeIntervalSince1970)))),
            JSONMember(key: "jti", value: .string(claims.jwtID)),
        ]
        if let authTime = claims.authTime {
            members.append(JSONMember(key: "auth_time", value: .number(String(Int64(authTime.timeIntervalSince1970)))))
        }
        if let thumbprint = claims.confirmationThumbprint {
            members.append(
                JSONMember(key: "cnf", value: .object([JSONMember(key: "jkt", value: .string(thumbprint))])))
        }
        if let organizationID = claims.organizationID {
            members.append(JSONMember(key: "org_id", value: .string(organizationID)))
        }
        return .object(members)
    }
}
