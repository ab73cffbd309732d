import Crypto
import Foundation
import JSON
import Tokens

extension TokenService {
    /// What an `id_token_hint` (OIDC RP-Initiated Logout 1.0 §2) says once verified: the client it was issued to and
    /// the user.
    package struct IDTokenHint: Sendable, Equatable {
        /// `aud`: the clients it was issued to (ours name one).
        package let audience: [String]
        /// `sub`.
        package let subject: String?
    }

    /// `token` verified as an ID token of this issuer (signature with our keys, `typ`, `iss`, and an `aud` that is
    /// the client it names), its expiry not enforced: RP-Initiated Logout 1.0 §2 says the OP should accept an
    /// expired hint, since a logout usually comes after the ID token's short life. The token is judged at its own
    /// `iat` (its times are otherwise ignored).
    /// - Throws: 400 `invalid_request` for a token that is none of ours.
    package func verifiedIDTokenHint(_ token: String) async throws -> IDTokenHint {
        let refusal = OAuthError(
            .invalidRequest, "The id_token_hint is invalid.", logCode: "id_token_hint_invalid", reason: "")
        guard token.utf8.count <= 16_384 else { throw refusal }
        // The claims used to build the expectations are read unverified; the verification then covers them.
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3, let payload = Base64URL.decode(segments[1]),
            let claims = try? JSONValue(parsing: payload), let issuedAt = claims["iat"]?.doubleValue
        else { throw refusal }
        let audience: String? =
            claims["aud"]?.stringValue ?? claims["aud"]?.arrayValue?.first?.stringValue
        guard let audience else { throw refusal }
        let expectations = JWTExpectations(
            type: IDTokenClaims.type, issuer: configuration.issuer, audience: audience,
            now: Date(timeIntervalSince1970: issuedAt))
        let ring = try await currentRing()
        let verified: VerifiedJWT
        switch Result(catching: { () throws(TokenError) in try ring.verifier.verify(token, expecting: expectations) }) {
        case .success(let value):
            verified = value
        case .failure(let error):
            // A key another node signs with that this node has not loaded yet, as for access tokens.
            guard error.code == .unknownKey, let reloaded = try await ringReloadedOnDemand(),
                let value = try? reloaded.verifier.verify(token, expecting: expectations)
            else { throw refusal }
            verified = value
        }
        return IDTokenHint(audience: verified.audience, subject: verified.subject)
    }
}
