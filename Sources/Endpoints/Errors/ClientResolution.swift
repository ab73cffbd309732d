import Configuration
import Service

/// Finds the client a request names and checks it may use a grant (RFC 6749 §5.2).
package enum ClientResolution {
    /// The configured client `client_id` of `parameters`, allowed to use `grant`.
    /// - Throws: 400 `invalid_request` without `client_id`, 401 `invalid_client` for an unknown one,
    ///   403 `unauthorized_client` when the grant is not enabled for it.
    package static func client(
        _ parameters: RequestParameters, allowing grant: String?, context: ServerContext
    ) throws -> ClientConfiguration {
        let clientID = try parameters.string("client_id", maxLength: 128)
        guard let client = context.configuration.client(id: clientID) else { throw OAuthError.unknownClient(clientID) }
        if let grant, !client.allows(grant: grant) { throw OAuthError.grantNotAllowed(grant) }
        return client
    }
}
