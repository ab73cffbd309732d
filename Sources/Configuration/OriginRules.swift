import Foundation

/// Validation of configured web origins and the RP ID, so a misconfiguration fails at start rather than
/// as mysteriously refused ceremonies.
package enum OriginRules {
    /// A lower-case DNS name (labels of letters, digits and hyphens), no scheme, port or path.
    package static func isValidRPID(_ id: String) -> Bool {
        guard !id.isEmpty, id.count <= 253, !id.hasPrefix("."), !id.hasSuffix(".") else { return false }
        return id.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
        }
    }

    /// Each origin must be `scheme://host[:port]` with no path, and (WebAuthn L3 §5.1.4.1 / §13.4.9) its host
    /// must be the RP ID or a subdomain of it, or the browser would refuse the ceremony anyway. `https` is
    /// required except for `localhost`, which browsers treat as a secure context.
    package static func validate(_ origins: [String], rpID: String, field: String) throws(ConfigurationError) {
        for (index, origin) in origins.enumerated() {
            let name = "\(field)[\(index)]"
            let host = try webOriginHost(origin, field: name)
            guard host == rpID || host.hasSuffix("." + rpID) else {
                throw ConfigurationError(
                    field: name,
                    reason: "the host of \"\(origin)\" is not \(rpID) or a subdomain of it (WebAuthn L3 §5.1.4.1)")
            }
        }
    }

    /// A realm's related origins (WebAuthn L3 §5.11): web origins of other domains allowed to use the RP ID. Each
    /// must be `scheme://host[:port]` (no path, query, fragment or credentials), `https` except on `localhost`;
    /// unlike `validate`'s, the host need not be the RP ID's (that is what §5.11.1's related origins validation
    /// procedure lets a browser accept). A duplicate is refused, as a sign of a mistaken list.
    package static func validateRelated(_ origins: [String], field: String) throws(ConfigurationError) {
        var seen = Set<String>()
        for (index, origin) in origins.enumerated() {
            let name = "\(field)[\(index)]"
            let host = try webOriginHost(origin, field: name)
            let url = URLComponents(string: origin)
            let key = "\(url?.scheme?.lowercased() ?? "")://\(host):\(url?.port.map(String.init) ?? "")"
            guard seen.insert(key).inserted else {
                throw ConfigurationError(field: name, reason: "\"\(origin)\" is listed twice")
            }
        }
    }

    /// The origins accepted in the client data of a ceremony in `realm` from a client accepting `clientOrigins`:
    /// those and the realm's related origins (WebAuthn L3 §5.11; §13.4.9: the RP decides which origins it accepts).
    package static func ceremonyOrigins(_ clientOrigins: [String], realm: RealmConfiguration) -> [String] {
        clientOrigins + realm.relatedOrigins.filter { !clientOrigins.contains($0) }
    }

    /// Every realm's related origins, each once, in configuration order: the `origins` of the document at
    /// `GET /.well-known/webauthn` (WebAuthn L3 §5.11), which browsers fetch per RP ID, not per realm.
    package static func relatedOrigins(of realms: [RealmConfiguration]) -> [String] {
        var seen = Set<String>()
        return realms.flatMap(\.relatedOrigins).filter { seen.insert($0).inserted }
    }

    /// The lower-cased host of `origin` when it is a web origin passkeyd accepts: `scheme://host[:port]` with no
    /// path, query, fragment or credentials, `https`, or `http` on `localhost` (a secure context for browsers).
    private static func webOriginHost(_ origin: String, field: String) throws(ConfigurationError) -> String {
        guard let url = URLComponents(string: origin), let scheme = url.scheme, let host = url.host?.lowercased(),
            !host.isEmpty, url.path.isEmpty, url.query == nil, url.fragment == nil, url.user == nil
        else {
            throw ConfigurationError(field: field, reason: "\"\(origin)\" is not an origin (scheme://host[:port])")
        }
        guard scheme == "https" || (scheme == "http" && host == "localhost") else {
            throw ConfigurationError(field: field, reason: "\"\(origin)\" must use https (http only for localhost)")
        }
        return host
    }
}
