import Crypto
import Foundation
import Storage
import WebAuthn

/// How a verified passkey ceremony completes (`WebAuthnGrant.ceremony`): everything up to and including its one
/// write is the same implementation; this decides what the write adds beyond the session's spending, the counter or
/// the new user, and the `login`/`signup` event, and which origins the ceremony may come from.
package enum CeremonyCompletion: Sendable {
    /// The webauthn grant: the login's first refresh token, when the client and scope give one; then the tokens.
    case tokens
    /// The hosted page (`HostedLogin.complete`): a login session and an authorization code, no token.
    case hosted(HostedRecords)

    /// What the hosted page's write stores: the session and the code, whose values were drawn before the ceremony
    /// (only their hashes are stored).
    package struct HostedRecords: Sendable {
        /// The authorization request the code is bound to.
        package let issuance: CodeIssuance
        /// SHA-256 of the session's cookie value.
        package let sessionHash: [UInt8]
        /// SHA-256 of the code.
        package let codeHash: [UInt8]
        /// `hosted_login.session_lifetime_seconds`.
        package let sessionLifetime: TimeInterval
        /// The hosted page's origins (`CeremonyVerifier.hostedOriginPolicy`), not the client's app origins.
        package let originPolicy: OriginPolicy
        /// The login session whose cookie value the browser presented, if any, and the event of its end: the new
        /// session replaces it (`StoreWriter.insertHostedLogin(session:code:replacing:)`).
        package var replacedSession: LoginSessionReplacement? = nil

        /// How long an authorization code may be redeemed (RFC 6749 §4.1.2: "a maximum authorization code lifetime
        /// of 10 minutes is RECOMMENDED"; 60 s here, issue 38).
        package static let codeLifetime: TimeInterval = 60

        /// The session and the code of `user`'s ceremony at `now` with `amr`, in `organizationID` (the auth
        /// session's).
        package func records(user: User, authenticationMethods: [String], organizationID: String?, now: Date)
            -> (session: LoginSession, code: AuthorizationCode)
        {
            let session = LoginSession(
                idHash: sessionHash, userID: user.id, realm: user.realm, authTime: now,
                authenticationMethods: authenticationMethods, createdAt: now,
                expiresAt: now.addingTimeInterval(sessionLifetime))
            return (session, issuance.code(hash: codeHash, session: session, organizationID: organizationID, now: now))
        }
    }

    /// Whether the write stores the login's first refresh token (the grant does; the hosted page's code grant does
    /// at redemption).
    var issuesRefreshToken: Bool {
        if case .tokens = self { return true }
        return false
    }

    /// The hosted page's records, when this is its completion.
    var hosted: HostedRecords? {
        if case .hosted(let records) = self { return records }
        return nil
    }
}

extension CodeIssuance {
    /// The code record of this request for the login `session`, issued at `now` for 60 s.
    package func code(hash: [UInt8], session: LoginSession, organizationID: String?, now: Date) -> AuthorizationCode {
        AuthorizationCode(
            codeHash: hash, clientID: client.clientID, redirectURI: redirectURI, codeChallenge: codeChallenge,
            userID: session.userID, sessionHash: session.idHash, realm: session.realm, scope: access.scope.text,
            audience: access.api.identifier, organizationID: organizationID, nonce: nonce, authTime: session.authTime,
            authenticationMethods: session.authenticationMethods, createdAt: now,
            expiresAt: now.addingTimeInterval(CeremonyCompletion.HostedRecords.codeLifetime),
            dpopThumbprint: dpopThumbprint)
    }
}
