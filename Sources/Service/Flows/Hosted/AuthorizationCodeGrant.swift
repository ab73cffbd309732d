import Configuration
import Crypto
import Foundation
import Storage

/// `grant_type=authorization_code` (RFC 6749 §4.1.3 with PKCE, RFC 7636 §4.5–4.6): a code the hosted login issued
/// for tokens minted as the passkey grant mints them, with the login's `auth_time` and `amr` and the request's
/// `nonce`. Every refusal is `invalid_grant` (`OAuthError.invalidCode`): an unknown or expired code, another client's,
/// a `redirect_uri` other than the authorization request's, a verifier whose S256 is not the challenge, a code bound
/// to a DPoP key (`dpop_jkt`, RFC 9449 §10) presented without a proof by that key. A refusal
/// does not spend the code (only its holder with the verifier can use it, for 60 s); one of a code that exists is
/// recorded (`code_refused`).
///
/// Exactly once: the redemption is a compare-and-set on the code's `redeemed_at` in the one write that stores the
/// refresh token and the `code_redeemed` event; of concurrent presentations, on any node, one succeeds. A code
/// presented after its redemption (or losing that race) is refused and the family its redemption issued is revoked
/// (RFC 6749 §4.1.2: "SHOULD revoke … all tokens previously issued based on that authorization code"), with a
/// `code_reuse` event: its refresh token stops working, and so do its access tokens at passkeyd's own endpoints
/// (`sid`, `SessionStatus.familyRevoked`), also when the redemption issued no refresh token
/// (`SessionFamilyRevocation`).
package struct AuthorizationCodeGrant: Sendable {
    package let context: ServerContext

    /// What the token request presents.
    package struct Parameters: Sendable {
        /// `code` as sent.
        package var code: String
        /// `redirect_uri` as sent: must be the authorization request's, exactly (RFC 6749 §4.1.3).
        package var redirectURI: String
        /// `code_verifier` as sent (RFC 7636 §4.1).
        package var codeVerifier: String
        /// The client the request names (`client_id`).
        package var client: ClientConfiguration
        /// The thumbprint of the request's verified DPoP proof (RFC 9449 §5), if any: the tokens are bound to it.
        package var dpopThumbprint: String?

        package init(
            code: String, redirectURI: String, codeVerifier: String, client: ClientConfiguration,
            dpopThumbprint: String?
        ) {
            self.code = code
            self.redirectURI = redirectURI
            self.codeVerifier = codeVerifier
            self.client = client
            self.dpopThumbprint = dpopThumbprint
        }
    }

    package init(context: ServerContext) {
        self.context = context
    }

    /// The token response of the code `parameters` present.
    /// - Throws: `OAuthError.invalidCode` (`invalid_grant`), 400 `invalid_request` for a malformed `code_verifier`,
    ///   `access_denied` for an API the client may no longer have; a store failure.
    package func redeem(_ parameters: Parameters) async throws -> TokenResponse {
        // RFC 7636 §4.1: 43–128 characters of [A-Z] / [a-z] / [0-9] / "-" / "." / "_" / "~".
        guard Self.isVerifier(parameters.codeVerifier) else {
            throw OAuthError.invalidParameter("code_verifier", reason: "not 43-128 unreserved characters")
        }
        guard let codeHash = HostedLogin.hashOfPresented(parameters.code) else {
            throw OAuthError.invalidCode("code_unknown", reason: "malformed code")
        }
        let now = context.clock.now()
        let client = parameters.client
        guard let code = try await context.store.read({ try $0.authorizationCode(hash: codeHash) }) else {
            throw OAuthError.invalidCode("code_unknown")
        }
        if code.redeemedAt != nil { try await refuseReuse(codeHash, clientID: client.clientID, now: now) }
        // RFC 6749 §4.1.3: issued to this client, for this redirect URI, and unexpired (§4.1.2: short-lived).
        guard code.clientID == client.clientID else {
            try await refuse(
                code, "code_other_client", clientID: client.clientID, now: now, reason: "code of \(code.clientID)")
        }
        guard now < code.expiresAt else { try await refuse(code, "code_expired", clientID: client.clientID, now: now) }
        guard parameters.redirectURI == code.redirectURI else {
            try await refuse(code, "redirect_uri_mismatch", clientID: client.clientID, now: now)
        }
        // RFC 7636 §4.6: BASE64URL-ENCODE(SHA256(ASCII(code_verifier))) == code_challenge, compared in constant time.
        let derived = Base64URL.encode(Digest.sha256(Array(parameters.codeVerifier.utf8)))
        guard ConstantTime.equals(Array(derived.utf8), Array(code.codeChallenge.utf8)) else {
            try await refuse(code, "pkce_mismatch", clientID: client.clientID, now: now)
        }
        // RFC 9449 §10: a code whose authorization request named `dpop_jkt` is redeemed only with a DPoP proof by that
        // key (the proof itself verified by the token endpoint, §4.3); else the request is rejected.
        if let bound = code.dpopThumbprint {
            guard let presented = parameters.dpopThumbprint,
                ConstantTime.equals(Array(presented.utf8), Array(bound.utf8))
            else {
                try await refuse(
                    code, "dpop_key_mismatch", clientID: client.clientID, now: now,
                    reason: parameters.dpopThumbprint == nil ? "no DPoP proof" : "a proof by another key")
            }
        }
        return try await tokens(for: code, hash: codeHash, parameters: parameters, now: now)
    }

    /// The code's tokens: its user and organization read, the access authorized again, then the one write that
    /// redeems the code, stores the refresh token and the `code_redeemed` event.
    private func tokens(for code: AuthorizationCode, hash codeHash: [UInt8], parameters: Parameters, now: Date)
        async throws -> TokenResponse
    {
        let client = parameters.client
        let (user, organization) = try await context.store.read { reader in
            (try reader.user(id: code.userID), try code.organizationID.flatMap { try reader.organization(id: $0) })
        }
        guard let user, user.realm == code.realm else { throw OAuthError.invalidCode("code_user_gone") }
        if code.organizationID != nil, organization == nil { throw OAuthError.invalidCode("code_organization_gone") }
        guard let scope = Scope(parsing: code.scope) else { throw OAuthError.bug("stored code scope unparsable") }
        let access = try context.tokens.authorization.authorize(client: client, audience: code.audience, scope: scope)
        let request = try GrantRequest(
            sessionClientID: code.clientID, sessionRealm: code.realm, realmName: nil, client: client, access: access,
            now: now, dpop: parameters.dpopThumbprint, organizationID: organization?.id,
            organizationName: organization?.name)
        let refresh =
            TokenService.issuesRefreshToken(client: client, access: access)
            ? try context.tokens.newRefreshToken(
                familyID: request.sessionID, clientID: client.clientID, userID: user.id, scope: access.scope.text,
                audience: access.api.identifier, authTime: code.authTime,
                authenticationMethods: code.authenticationMethods, now: now,
                expiry: context.tokens.refreshPolicy.firstExpiry(issuedAt: now),
                dpopThumbprint: parameters.dpopThumbprint, organizationID: organization?.id) : nil
        let event = AuthenticationAuditEvent.make(
            .codeRedeemed, outcome: AuthenticationAuditEvent.success, now: now, userID: user.id,
            clientID: client.clientID, familyID: request.sessionID)
        let redeemed = try await context.store.write { writer -> Bool in
            guard try writer.redeemAuthorizationCode(hash: codeHash, at: now, refreshFamily: request.sessionID) else {
                // Redeemed by a concurrent presentation: a second use, answered below once this write commits.
                try Self.revokeRedemption(
                    writer, codeHash: codeHash, clientID: client.clientID, now: now,
                    configuration: context.configuration)
                return false
            }
            if let refresh { try writer.insertRefreshToken(refresh.record) }
            _ = try writer.appendSecurityEvent(event)
            return true
        }
        guard redeemed else { throw Self.reused }
        context.metrics.count(event: "code_redeemed")
        var grant = TokenService.Grant(
            user: user, clientID: client.clientID, access: access, authTime: code.authTime,
            authenticationMethods: code.authenticationMethods, dpopThumbprint: parameters.dpopThumbprint,
            sessionID: request.sessionID, isLogin: true, organizationID: organization?.id,
            organizationName: organization?.name)
        grant.nonce = code.nonce
        return try await context.tokens.tokenResponse(for: grant, refreshToken: refresh?.value, now: now)
    }

    /// The refusal of a code presented after its redemption.
    static let reused = OAuthError.invalidCode("code_reused")

    /// A code that exists presented in a way it cannot be redeemed: records `code_refused` (the code's user, the
    /// presenting client, `refusal` as the reason: a code of another client or one presented with the wrong verifier
    /// may have been intercepted, RFC 9700 §4.5) and refuses with `invalid_grant`. The code is not spent. Codes not
    /// found are refused without an event: there is no user to attribute them to.
    private func refuse(
        _ code: AuthorizationCode, _ refusal: String, clientID: String, now: Date, reason: String = ""
    ) async throws -> Never {
        try await context.store.write { writer in
            _ = try writer.appendSecurityEvent(
                AuthenticationAuditEvent.make(
                    .codeRefused, outcome: AuthenticationAuditEvent.failure, now: now, userID: code.userID,
                    clientID: clientID, reasonCode: refusal))
        }
        throw OAuthError.invalidCode(refusal, reason: reason)
    }

    /// A redeemed code presented again: revokes what its redemption issued, records `code_reuse`, and refuses.
    private func refuseReuse(_ codeHash: [UInt8], clientID: String, now: Date) async throws -> Never {
        try await context.store.write { writer in
            try Self.revokeRedemption(
                writer, codeHash: codeHash, clientID: clientID, now: now, configuration: context.configuration)
        }
        throw Self.reused
    }

    /// In `writer`: ends the session family the redemption of `codeHash` issued (RFC 6749 §4.1.2;
    /// `SessionFamilyRevocation`), and appends the `code_reuse` event naming the presenting client.
    static func revokeRedemption(
        _ writer: any StoreWriter, codeHash: [UInt8], clientID: String, now: Date, configuration: ServerConfiguration
    ) throws(StorageError) {
        guard let code = try writer.authorizationCode(hash: codeHash) else { return }
        if let family = code.refreshFamily {
            _ = try SessionFamilyRevocation.revoke(
                writer, family: family,
                grant: .init(
                    clientID: code.clientID, userID: code.userID, scope: code.scope, authTime: code.authTime,
                    audience: code.audience, organizationID: code.organizationID),
                now: now, configuration: configuration)
        }
        _ = try writer.appendSecurityEvent(
            AuthenticationAuditEvent.make(
                .codeReuse, outcome: AuthenticationAuditEvent.failure, now: now, userID: code.userID,
                clientID: clientID, familyID: code.refreshFamily, reasonCode: "code_reused"))
    }

    /// Whether `value` is a PKCE code verifier (RFC 7636 §4.1).
    static func isVerifier(_ value: String) -> Bool {
        (43...128).contains(value.utf8.count)
            && value.utf8.allSatisfy { byte in
                (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                    || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
            }
    }
}
