import Foundation

/// The one home of redirect URIs (`redirect_uris`, `post_logout_redirect_uris`): what a client may register, checked
/// at load, and how a presented URI is matched against the registered ones (`/authorize`, the code grant, logout).
///
/// Registered: an absolute URI without a fragment (RFC 6749 §3.1.2) and without wildcards, of one of three shapes —
/// `https`; `http` on a loopback host (`127.0.0.1`, `[::1]`, `localhost`; RFC 8252 §7.3, §8.3); or a private-use
/// scheme in reverse-domain form, i.e. containing a `.` (RFC 8252 §7.1; Auth0's native
/// `{bundle}://{domain}/ios/{bundle}/callback`). Matching is exact string comparison (RFC 9700 §2.1), except that
/// for an `http` URI on a loopback IP literal the port is ignored (RFC 8252 §7.3: native apps bind an ephemeral
/// port).
package enum RedirectURIRules {
    /// The loopback hosts an `http` redirect URI may name (RFC 8252 §7.3; `localhost`, §8.3, is allowed but gets no
    /// port leniency).
    static let loopbackHosts: Set<String> = ["127.0.0.1", "[::1]", "::1", "localhost"]

    /// The registered redirect URIs of `key` in `object`, each checked (`problem(with:)`).
    /// - Throws: `ConfigurationError` naming the first bad one.
    package static func read(_ object: ConfigObject, _ key: String) throws(ConfigurationError) -> [String] {
        let uris = try object.stringArray(key)
        for (index, uri) in uris.enumerated() {
            if let problem = problem(with: uri) { throw object.error("\(key)[\(index)]", "\"\(uri)\" \(problem)") }
        }
        return uris
    }

    /// Why `uri` cannot be registered, or nil when it can.
    package static func problem(with uri: String) -> String? {
        guard !uri.isEmpty, uri.count <= 2_048, uri.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
        else { return "must be 1 to 2048 printable ASCII characters without spaces" }
        guard !uri.contains("*") else { return "must not contain a wildcard" }
        guard !uri.contains("#"), let components = URLComponents(string: uri), components.fragment == nil else {
            return "must be an absolute URI without a fragment (RFC 6749 §3.1.2)"
        }
        guard let scheme = components.scheme?.lowercased(), components.user == nil, components.password == nil else {
            return "must be an absolute URI without user information (RFC 6749 §3.1.2)"
        }
        let host = components.host?.lowercased() ?? ""
        switch scheme {
        case "https":
            return host.isEmpty ? "must name a host" : nil
        case "http":
            // URLComponents reports an IPv6 literal without its brackets.
            return loopbackHosts.contains(host) ? nil : "must use https (http only on a loopback host, RFC 8252 §7.3)"
        default:
            // RFC 8252 §7.1: a private-use scheme is a reverse domain name the app controls.
            return scheme.contains(".")
                ? nil : "must use https, http on loopback, or a reverse-domain scheme (RFC 8252 §7.1)"
        }
    }

    /// Whether `presented` matches `registered` (the rule above).
    package static func matches(registered: String, presented: String) -> Bool {
        if registered == presented { return true }
        guard let registeredRest = withoutLoopbackPort(registered), let presentedRest = withoutLoopbackPort(presented)
        else { return false }
        return registeredRest == presentedRest
    }

    /// The registered URI of `registered` that `presented` matches, if any.
    package static func match(_ presented: String, in registered: [String]) -> String? {
        registered.first { matches(registered: $0, presented: presented) }
    }

    /// `uri` with its port removed when it is an `http` URI on a loopback IP literal; nil for any other URI or one
    /// whose authority does not end where it should.
    static func withoutLoopbackPort(_ uri: String) -> String? {
        for origin in ["http://127.0.0.1", "http://[::1]"] where uri.hasPrefix(origin) {
            var rest = Substring(uri.dropFirst(origin.count))
            if rest.first == ":" {
                rest = rest.dropFirst()
                let digits = rest.prefix { ("0"..."9").contains($0) }
                guard !digits.isEmpty, digits.count <= 5 else { return nil }
                rest = rest.dropFirst(digits.count)
            }
            guard rest.isEmpty || rest.first == "/" || rest.first == "?" else { return nil }
            return origin + rest
        }
        return nil
    }
}
