import Foundation
import JSON

extension AccessTokenClaims {
    /// Reads the RFC 9068 claims of an access token that `JWTVerifier` accepted (with `typ` "at+jwt").
    /// - Throws: `.missingClaim` when sub, iat, jti or client_id is absent (RFC 9068 §2.2);
    ///   `.invalidClaim` for a claim of the wrong type.
    public init(verified token: VerifiedJWT) throws(TokenError) {
        let extra: PrivateClaims
        do {
            extra = try JSONValueDecoder().decode(PrivateClaims.self, from: token.payload)
        } catch {
            throw TokenError(.invalidClaim, "client_id, scope, auth_time, amr, cnf or sid has the wrong type")
        }
        // RFC 9068 §4: a resource server MUST reject tokens missing the required claims.
        guard let subject = token.subject, let issuedAt = token.issuedAt, let jwtID = token.jwtID,
            let clientID = extra.client_id
        else {
            throw TokenError(.missingClaim, "sub, iat, jti and client_id are required in an access token")
        }
        self.init(
            issuer: token.issuer, subject: subject, audience: token.audience, clientID: clientID,
            scope: extra.scope.map { $0.split(separator: " ").map(String.init) } ?? [],
            issuedAt: issuedAt, expiresAt: token.expiresAt, jwtID: jwtID,
            authTime: extra.auth_time.map { Date(timeIntervalSince1970: $0) },
            authenticationMethods: extra.amr ?? [], confirmationThumbprint: extra.cnf?.jkt, sessionID: extra.sid
        )
    }

    /// The non-registered claims of RFC 9068 §2.2, named as on the wire.
    private struct PrivateClaims: Decodable {
        let client_id: String?
        let scope: String?
        let auth_time: Double?
        let amr: [String]?
        let cnf: Confirmation?
        let sid: String?
    }

    /// RFC 7800 §3.1 `cnf`, of which RFC 9449 §6.1 defines `jkt`.
    private struct Confirmation: Decodable {
        let jkt: String?
    }
}
