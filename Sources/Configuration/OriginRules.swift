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
            guard let url = URLComponents(string: origin), let scheme = url.scheme, let host = url.host?.lowercased(),
                !host.isEmpty, url.path.isEmpty, url.query == nil, url.fragment == nil, url.user == nil
            else {
                throw ConfigurationError(field: name, reason: "\"\(origin)\" is not an origin (scheme://host[:port])")
            }
            guard scheme == "https" || (scheme == "http" && host == "localhost") else {
                throw ConfigurationError(field: name, reason: "\"\(origin)\" must use https (http only for localhost)")
            }
            guard host == rpID || host.hasSuffix("." + rpID) else {
                throw ConfigurationError(
                    field: name,
                    reason: "the host of \"\(origin)\" is not \(rpID) or a subdomain of it (WebAuthn L3 §5.1.4.1)")
            }
        }
    }
}
