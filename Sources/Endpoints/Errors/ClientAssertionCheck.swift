import Configuration
import HTTP
import Service
import Tokens

/// `private_key_jwt` (RFC 7523 §2.2, §3; OIDC Core §9): a client's assertion verified with its configured keys, for
/// this server, and spent once across nodes.
enum ClientAssertionCheck {
    /// Verifies `assertion` as `client`'s for `request`, and spends its `jti` (RFC 7523 §3 item 7: replay refused, in
    /// `spent_tokens` until the assertion's `exp`, so every node sees it).
    /// - Throws: 401 `invalid_client` (the same description as any failed client authentication; the log code says
    ///   which check: `client_assertion_<token error code>`, `client_assertion_unexpected` for a client without keys,
    ///   `client_assertion_replayed`); a store failure as storage errors are answered.
    static func verify(_ assertion: String, client: ClientConfiguration, request: Request, context: ServerContext)
        async throws
    {
        guard !client.assertionKeys.isEmpty else {
            throw ClientCredentials.refusal(
                "client_assertion_unexpected", reason: "client \(client.clientID) has no jwks", basic: false)
        }
        let configuration = context.configuration
        let now = context.clock.now()
        let verified: ClientAssertion
        do {
            verified = try ClientAssertion(
                verifying: assertion, clientID: client.clientID, keys: client.assertionKeys,
                audiences: audiences(for: request, configuration: configuration), now: now)
        } catch {
            throw ClientCredentials.refusal(
                "client_assertion_\(error.code.rawValue)", reason: "client \(client.clientID): \(error.reason)",
                basic: false)
        }
        let key = "client_assertion:\(client.clientID):\(verified.jwtID)"
        let spent = try await context.store.write { writer in
            try writer.spendToken(jwtID: key, expiresAt: verified.expiresAt)
        }
        guard spent else {
            throw ClientCredentials.refusal(
                "client_assertion_replayed", reason: "client \(client.clientID): jti already used", basic: false)
        }
    }

    /// The values `aud` may name this server by (RFC 7523 §3 item 3): its issuer (Auth0's `https://<domain>/`), its
    /// token endpoint, and the endpoint receiving the assertion (RFC 9126 §2: a PAR request's may name it).
    static func audiences(for request: Request, configuration: ServerConfiguration) -> [String] {
        var audiences = [configuration.issuer, configuration.url(of: "/oauth/token")]
        let receiving = configuration.url(of: request.path)
        if !audiences.contains(receiving) { audiences.append(receiving) }
        return audiences
    }
}
