import Configuration
import Foundation
import HTTP
import JSON
import Service

/// Pushed authorization requests (RFC 9126): `POST /oauth/par` checks a form-encoded authorization request exactly as
/// `/authorize` checks one (`AuthorizationRequest.parse`) and answers 201 with a `request_uri` that seals it
/// (`PushedAuthorizationRequest`, nothing stored); `/authorize?client_id=…&request_uri=…` opens it
/// (`pushedQuery`) and takes its parameters, and only its, as the request (§4).
package struct PushedAuthorizationEndpoint: Sendable {
    package let context: ServerContext

    package static func register(in router: inout Router, context: ServerContext) {
        let endpoint = PushedAuthorizationEndpoint(context: context)
        router.add(
            .post, "/oauth/par", EndpointHandler.make(context, rateLimited: true) { try await endpoint.push($0) })
    }

    /// `POST /oauth/par` → 201 `{"request_uri", "expires_in"}` (RFC 9126 §2.2).
    /// - Throws: 400 for a body that is not a form (or repeats a parameter, RFC 6749 §3.1); as the token endpoint
    ///   (`ClientResolution`): 400 `invalid_request` without `client_id`, 401 `invalid_client` for an unknown client
    ///   or credentials that do not authenticate it, 403 `unauthorized_client` for a client without the authorization
    ///   code grant; 400 with the error
    ///   `/authorize` would have sent to the redirect URI otherwise (§2.3; 403 `access_denied` for an audience the
    ///   client may not have, as everywhere); 400 `invalid_dpop_proof` for a `DPoP` proof that fails a check or names
    ///   another key than `dpop_jkt`.
    func push(_ request: Request) async throws -> Response {
        var parameters = try request.formParameters()
        let configuration = context.configuration
        // RFC 9126 §2: the client authenticates as at the token endpoint, and §2.3: is refused as there (RFC 6749
        // §5.2: `invalid_client`, or `unauthorized_client` without the authorization code grant).
        let client = try await ClientResolution.client(
            RequestParameters(values: parameters.mapValues { .string($0) }), request: request,
            allowing: GrantType.authorizationCode.rawValue, context: context)
        // The credentials are not part of the request: never sealed into the request_uri. A client that sent its id
        // in the Basic header only has it set, as `/authorize` reads the request's.
        for credential in ClientCredentials.credentialParameters { parameters[credential] = nil }
        parameters["client_id"] = client.clientID
        // RFC 9126 §2.1: "The request_uri authorization request parameter MUST NOT be provided in this case".
        if parameters["request_uri"] != nil {
            throw OAuthError(.invalidRequest, "request_uri cannot be pushed.", logCode: "par_request_uri")
        }
        // RFC 9449 §10.1: a DPoP proof with the pushed request binds the code to its key, as `dpop_jkt` does; when
        // both come, they must name the same key.
        if let proof = try await context.tokens.checkDPoP(request) {
            if let named = parameters["dpop_jkt"], !named.isEmpty, named != proof.thumbprint {
                throw OAuthError.invalidDPoPProof(
                    "par_dpop_jkt_mismatch", reason: "dpop_jkt \(named.prefix(64)) is not the proof's key")
            }
            parameters["dpop_jkt"] = proof.thumbprint
        }
        let now = context.clock.now()
        switch AuthorizationRequest.parse(parameters, configuration: configuration, csrf: "", now: now, pushed: true) {
        case .accepted(let authorization):
            // What `/authorize` asks next of a parsed request: the client's access to the audience and scope.
            _ = try HostedIssuance.issuance(authorization.transaction, context: context)
        case .refused(.page(let description), _, _, _):
            throw OAuthError(.invalidRequest, description, logCode: "par_refused")
        case .refused(.redirect(let error, let description), _, _, _):
            // The error `/authorize` would have redirected with, here in the answer, with its kind's status (400 for
            // those that have no `OAuthError.Kind`: `unsupported_response_type`, `request_not_supported`).
            return Response.error(
                status: OAuthError.Kind(rawValue: error)?.status ?? 400, error: error, description: description)
        }
        let pushed = PushedAuthorizationRequest(
            parameters: parameters,
            expiresAt: now.addingTimeInterval(TimeInterval(PushedAuthorizationRequest.lifetime)))
        let sealed = try context.authSessionKey.pushedRequestSealer().seal(pushed)
        return .json(
            .object([
                JSONMember(key: "request_uri", value: .string(PushedAuthorizationRequest.uriPrefix + sealed)),
                JSONMember(key: "expires_in", value: .number(String(PushedAuthorizationRequest.lifetime))),
            ]), status: 201)
    }

    /// The parameters `/authorize` takes as its request when `query` names a pushed request's `request_uri` (RFC 9126
    /// §4, `PushedAuthorizationRequest.uriPrefix`): the pushed request's, once it opens, is live and was pushed for the
    /// query's `client_id`; `nil` when `query` names none (another `request_uri`, OIDC Core §6.2's by reference, is
    /// then refused by `AuthorizationRequest.parse` as unsupported).
    /// - Throws: `AuthorizationRequest.Refusal.page` (the error page: no redirect URI is known to be right yet) for a
    ///   `request_uri` that is not a live pushed request of this client.
    static func pushedQuery(
        _ query: [String: String], repeated: [String], context: ServerContext, now: Date
    ) async throws -> [String: String]? {
        guard let uri = query["request_uri"], uri.hasPrefix(PushedAuthorizationRequest.uriPrefix) else { return nil }
        let clientID = try AuthorizationRequest.requestedClientID(query, repeated: repeated, alsoOnce: "request_uri")
        guard
            let pushed = try await context.openPushedRequest(
                String(uri.dropFirst(PushedAuthorizationRequest.uriPrefix.count)), now: now)
        else {
            throw AuthorizationRequest.Refusal.page(
                "The sign-in request has expired or is unknown (request_uri). Go back to the application and start again."
            )
        }
        // RFC 9126 §4: the pushed request must be the client's.
        guard pushed.clientID == clientID else {
            throw AuthorizationRequest.Refusal.page("The sign-in request (request_uri) is another client's.")
        }
        return pushed.parameters
    }
}
