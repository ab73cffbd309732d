import Configuration
import JSON
import Storage

/// `grant_type=client_credentials` (RFC 6749 §4.4): a confidential client, authenticated by its secret
/// (`ClientResolution`), gets an access token for one of the configured APIs its client grant covers
/// (`MachineAuthorization`), for itself: no user, so no refresh or ID token. Every issuance is a security event
/// (`client_credentials`: the client, and in `detail` the audience and scope), in the audit log like a user's
/// login.
package struct ClientCredentialsGrant: Sendable {
    package let context: ServerContext

    package init(context: ServerContext) {
        self.context = context
    }

    /// What the token request asks for.
    package struct Parameters: Sendable {
        package var client: ClientConfiguration
        /// `audience`, when sent (else `default_audience`).
        package var audience: String?
        /// `scope`, when sent (else every scope of the client's grant).
        package var scope: String?
        /// The thumbprint of the request's verified DPoP proof (RFC 9449 §5), if any.
        package var dpopThumbprint: String?

        package init(client: ClientConfiguration, audience: String?, scope: String?, dpopThumbprint: String?) {
            self.client = client
            self.audience = audience
            self.scope = scope
            self.dpopThumbprint = dpopThumbprint
        }
    }

    /// The token response for `parameters`.
    /// - Throws: as `MachineAuthorization.authorize`; 429 `too_many_requests` with `Retry-After` over the client's
    ///   enforced `token_quota` (nothing issued, not counted); a store failure while recording the issuance (nothing
    ///   issued, counted against the quota all the same).
    package func issue(_ parameters: Parameters) async throws -> TokenResponse {
        let access = try MachineAuthorization(configuration: context.configuration).authorize(
            client: parameters.client, audience: parameters.audience, scope: parameters.scope)
        let now = context.clock.now()
        let clientID = parameters.client.clientID
        switch context.machineTokenQuota.admit(parameters.client, now: now) {
        case .allowed:
            break
        case .limited(let retryAfter, let window):
            context.metrics.count(event: "token_quota_exceeded")
            throw OAuthError(
                .tooManyRequests, "The client's token quota is used up. Try again later.",
                logCode: "token_quota_exceeded", reason: "client \(clientID) over its \(window) token quota",
                retryAfter: retryAfter)
        case .overUnenforced:
            context.metrics.count(event: "token_quota_exceeded_unenforced")
        }
        let response = try await context.tokens.machineTokenResponse(
            clientID: clientID, access: access, now: now, dpopThumbprint: parameters.dpopThumbprint)
        // Recorded before the answer: a token nobody's audit log shows is never handed out.
        let detail = JSONValue.object([
            JSONMember(key: "audience", value: .string(access.api.identifier)),
            JSONMember(key: "scope", value: .string(access.scope.text)),
        ]).serialized()
        let event = SecurityEvent(
            occurredAt: now, kind: .clientCredentials, clientID: clientID, outcome: AuthenticationAuditEvent.success,
            detail: detail)
        _ = try await context.store.write { writer in try writer.appendSecurityEvent(event) }
        context.metrics.count(event: "client_credentials")
        return response
    }
}
