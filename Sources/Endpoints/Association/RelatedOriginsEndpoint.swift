import Configuration
import HTTP
import JSON
import Service

/// `GET /.well-known/webauthn` (WebAuthn L3 §5.11): the related origins document, `{"origins": [...]}` as
/// `application/json`, listing the web origins of other domains allowed to use the RP ID (every realm's
/// `related_origins`). A browser fetches it from `https://<RP ID>/.well-known/webauthn` during the related origins
/// validation procedure (§5.11.1), so it answers for the RP ID's host only: 404 for any other `Host`, and for a
/// configuration without related origins. Public, and readable from any origin.
package enum RelatedOriginsEndpoint {
    /// The route's path.
    package static let path = "/.well-known/webauthn"

    package static func register(in router: inout Router, configuration: ServerConfiguration) {
        let origins = OriginRules.relatedOrigins(of: configuration.realms)
        let body = document(origins).serialized()
        let rpID = configuration.relyingParty.id
        router.addInline(.get, path) { request in
            // §5.11: "an array of one or more strings": without related origins there is no document.
            guard !origins.isEmpty, host(of: request.headers["Host"]) == rpID else {
                return .error(status: 404, error: "not_found", description: "No resource at this path.")
            }
            return DiscoveryEndpoints.cacheable(body, maxAge: 3600)
        }
    }

    /// `{"origins": [...]}`.
    package static func document(_ origins: [String]) -> JSONValue {
        .object([JSONMember(key: "origins", value: .array(origins.map(JSONValue.string)))])
    }

    /// The host of a `Host` field (RFC 9110 §7.2: `uri-host [ ":" port ]`), lower-cased, without a port or a
    /// trailing dot; `nil` without one.
    package static func host(of field: String?) -> String? {
        guard var host = field?.lowercased(), !host.isEmpty else { return nil }
        if host.hasPrefix("[") {
            // An IP literal: never an RP ID, but cut at its bracket rather than at a colon inside it.
            guard let end = host.firstIndex(of: "]") else { return nil }
            host = String(host[...end])
        } else if let colon = host.firstIndex(of: ":") {
            host = String(host[..<colon])
        }
        if host.hasSuffix(".") { host.removeLast() }
        return host
    }
}
