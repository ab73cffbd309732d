import Configuration
import HTTP
import JSON
import Service
import Tokens

/// `GET /.well-known/openid-configuration` (OpenID Connect Discovery 1.0 §3, RFC 8414 §2) and
/// `GET /.well-known/jwks.json` (RFC 7517 §5).
package enum DiscoveryEndpoints {
    package static func register(in router: inout Router, context: ServerContext) {
        let document = discoveryDocument(context.configuration).serialized()
        router.addInline(.get, "/.well-known/openid-configuration") { _ in
            cacheable(document, maxAge: 3600)
        }
        // Short caching: a rotated key must reach verifiers before it signs for long. Answered from the cached keys
        // on the thread that read the request, unless they are due to be read again (at most once a second).
        router.add(
            .get, "/.well-known/jwks.json",
            inlineWhenPossible: { _ in context.tokens.cachedJWKSBytes().map { cacheable($0, maxAge: 60) } },
            otherwise: EndpointHandler.make(context) { _ in
                cacheable(try await context.tokens.jwksBytes(), maxAge: 60)
            })
    }

    /// An `application/json` response that shared caches may keep for `maxAge` seconds.
    package static func cacheable(_ body: [UInt8], maxAge: Int) -> Response {
        Response(
            status: 200,
            headers: ["Content-Type": "application/json", "Cache-Control": "public, max-age=\(maxAge)"],
            body: body)
    }

    /// The discovery metadata.
    /// How a client may authenticate (RFC 6749 §2.3.1, OIDC Discovery §3): `none` for a public client, a
    /// confidential client's secret in `Authorization: Basic` or in the body (`ClientResolution`).
    package static let clientAuthenticationMethods = [
        "none", "client_secret_basic", "client_secret_post", "private_key_jwt",
    ]

    /// The `alg` values of client assertions (`JWTVerificationKey`: RS256, RS384, PS256 and ES256 keys).
    package static let assertionAlgorithms = [JWSHeader.rs256, JWSHeader.rs384, JWSHeader.ps256, JWSHeader.es256]

    package static func discoveryDocument(_ configuration: ServerConfiguration) -> JSONValue {
        let issuer = configuration.issuer
        func strings(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }
        return .object([
            JSONMember(key: "issuer", value: .string(issuer)),
            JSONMember(key: "authorization_endpoint", value: .string(configuration.url(of: "/authorize"))),
            JSONMember(key: "token_endpoint", value: .string(configuration.url(of: "/oauth/token"))),
            JSONMember(key: "revocation_endpoint", value: .string(configuration.url(of: "/oauth/revoke"))),
            // RFC 7662 §2, RFC 8414 §2: introspection, for confidential clients only.
            JSONMember(key: "introspection_endpoint", value: .string(configuration.url(of: "/oauth/introspect"))),
            JSONMember(key: "userinfo_endpoint", value: .string(configuration.url(of: "/userinfo"))),
            JSONMember(key: "jwks_uri", value: .string(configuration.url(of: "/.well-known/jwks.json"))),
            // OIDC RP-Initiated Logout 1.0 §2.1.
            JSONMember(key: "end_session_endpoint", value: .string(configuration.url(of: "/oidc/logout"))),
            // RFC 9126 §5: pushed authorization requests, required of the clients that say so (client metadata).
            JSONMember(
                key: "pushed_authorization_request_endpoint", value: .string(configuration.url(of: "/oauth/par"))),
            JSONMember(key: "require_pushed_authorization_requests", value: .bool(false)),
            JSONMember(
                key: "grant_types_supported",
                // RFC 8414 §2: every grant the token endpoint supports.
                value: strings(GrantType.allCases.map(\.rawValue))),
            // The authorization code flow only (RFC 9700 §2.1.2: no implicit grant), answered in the query.
            JSONMember(key: "response_types_supported", value: strings(["code"])),
            JSONMember(
                key: "response_modes_supported", value: strings(AuthorizationResponseMode.allCases.map(\.rawValue))),
            // RFC 7636 §4.3, RFC 9700 §2.1.1: S256 only, required of every client.
            JSONMember(key: "code_challenge_methods_supported", value: strings(["S256"])),
            JSONMember(key: "prompt_values_supported", value: strings(AuthorizationRequest.promptValues)),
            // RFC 9207 §3: every authorization response carries `iss`.
            JSONMember(key: "authorization_response_iss_parameter_supported", value: .bool(true)),
            JSONMember(key: "subject_types_supported", value: strings(["public"])),
            // OIDC Discovery §3: RS256 MUST be listed; ES256 for the clients that ask for it.
            JSONMember(
                key: "id_token_signing_alg_values_supported",
                value: strings(TokenSigningAlgorithm.allCases.reversed().map(\.rawValue))),
            // RFC 6749 §2.3.1: public clients (`none`, PKCE) and confidential ones with a secret, sent either way.
            JSONMember(key: "token_endpoint_auth_methods_supported", value: strings(Self.clientAuthenticationMethods)),
            JSONMember(
                key: "revocation_endpoint_auth_methods_supported", value: strings(Self.clientAuthenticationMethods)),
            JSONMember(
                key: "introspection_endpoint_auth_methods_supported",
                value: strings(Self.clientAuthenticationMethods.filter { $0 != "none" })),
            // RFC 8414 §2: the algorithms of `private_key_jwt` assertions (RFC 7523), per endpoint that takes them.
            JSONMember(
                key: "token_endpoint_auth_signing_alg_values_supported", value: strings(Self.assertionAlgorithms)),
            JSONMember(
                key: "revocation_endpoint_auth_signing_alg_values_supported", value: strings(Self.assertionAlgorithms)),
            JSONMember(
                key: "introspection_endpoint_auth_signing_alg_values_supported",
                value: strings(Self.assertionAlgorithms)),
            // RFC 9701 §7: introspection responses as signed JWTs, RS256 (the default) or ES256 per client.
            JSONMember(
                key: "introspection_signing_alg_values_supported",
                value: strings(TokenSigningAlgorithm.allCases.reversed().map(\.rawValue))),
            // RFC 9449 §5.1: the proof algorithms the token endpoint accepts.
            JSONMember(key: "dpop_signing_alg_values_supported", value: strings(DPoPProofVerifier.algorithms)),
            JSONMember(
                key: "scopes_supported", value: strings(["openid", "profile", "email", "phone", "offline_access"])),
            JSONMember(
                key: "claims_supported",
                value: strings([
                    "sub", "iss", "aud", "exp", "iat", "auth_time", "amr", "sid", "name", "preferred_username",
                    "given_name", "family_name", "nickname", "picture", "email", "email_verified", "phone_number",
                    "phone_number_verified",
                ])),
        ])
    }
}
