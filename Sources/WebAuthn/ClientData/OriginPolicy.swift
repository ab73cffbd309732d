import Foundation

/// Which origins a relying party accepts in client data (WebAuthn L3 §7.1 step 9, §13.4.9).
///
/// URL origins (`https://example.com:8443`) match by scheme, host and port exactly, with default ports
/// normalised (`https://rp:443` is `https://rp`); a sub-domain, another scheme or another port never
/// matches. Opaque origins such as Android's `android:apk-key-hash:<base64url>` match as exact strings.
public struct OriginPolicy: Sendable {
    /// The origins accepted in `C.origin`, as configured.
    public var allowedOrigins: [String] { rules.allowedOrigins }
    /// Whether `crossOrigin: true` (a cross-origin iframe) is acceptable.
    public var allowsCrossOrigin: Bool { rules.allowsCrossOrigin }
    /// The pages allowed to frame the RP (`C.topOrigin`), as configured.
    public var allowedTopOrigins: [String] { rules.allowedTopOrigins }

    /// Everything, built once and shared: a policy is copied into every ceremony's expectations, and one
    /// reference costs one retain where six fields cost six.
    private let rules: Rules

    private final class Rules: Sendable {
        let allowedOrigins: [String]
        let allowsCrossOrigin: Bool
        let allowedTopOrigins: [String]
        let exactOrigins: Set<String>
        let normalizedOrigins: Set<String>
        let normalizedTopOrigins: Set<String>

        init(allowedOrigins: [String], allowsCrossOrigin: Bool, allowedTopOrigins: [String]) {
            self.allowedOrigins = allowedOrigins
            self.allowsCrossOrigin = allowsCrossOrigin
            self.allowedTopOrigins = allowedTopOrigins
            self.exactOrigins = Set(allowedOrigins)
            self.normalizedOrigins = Set(allowedOrigins.compactMap(OriginPolicy.normalize))
            self.normalizedTopOrigins = Set(allowedTopOrigins.compactMap(OriginPolicy.normalize))
        }
    }

    /// Creates a policy.
    /// - Parameters:
    ///   - allowedOrigins: origins accepted in `C.origin`.
    ///   - allowsCrossOrigin: accept `crossOrigin: true` and a `topOrigin`.
    ///   - allowedTopOrigins: origins accepted in `C.topOrigin` (only consulted when cross-origin is allowed).
    public init(allowedOrigins: [String], allowsCrossOrigin: Bool = false, allowedTopOrigins: [String] = []) {
        rules = Rules(
            allowedOrigins: allowedOrigins, allowsCrossOrigin: allowsCrossOrigin, allowedTopOrigins: allowedTopOrigins)
    }

    /// Whether `origin` is one of the allowed origins.
    public func allows(origin: String) -> Bool {
        // Fast path: the exact configured text (the common case, no URL parsing).
        if rules.exactOrigins.contains(origin) { return true }
        guard let normalized = Self.normalize(origin) else { return false }
        return rules.normalizedOrigins.contains(normalized)
    }

    /// Whether `topOrigin` is one of the allowed top origins.
    public func allows(topOrigin: String) -> Bool {
        guard let normalized = Self.normalize(topOrigin) else { return false }
        return rules.normalizedTopOrigins.contains(normalized)
    }

    /// The origin of the http or https URL `url`, serialized (RFC 6454 §6.2: `scheme://host[:port]`, scheme and host
    /// lower-cased, an IPv6 literal in brackets, the scheme's default port left out), or `nil` for any other URL (a
    /// native app's own scheme, no host): the origin a page at `url` has, where a form posting to it goes, and what
    /// `postMessage` names as its target.
    public static func webOrigin(of url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            defaultPorts[scheme] != nil, let host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        // URLComponents reports an IPv6 literal without its brackets.
        let serializedHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        guard let port = components.port, port != defaultPorts[scheme] else { return "\(scheme)://\(serializedHost)" }
        return "\(scheme)://\(serializedHost):\(port)"
    }

    /// The comparison key of an origin: `scheme://host:port` with lower-cased scheme and host and the
    /// scheme's default port filled in (RFC 6454 §4), or the text itself for an opaque origin
    /// (no `://`). `nil` for a URL that is not a bare origin (path, query, fragment or credentials).
    static func normalize(_ origin: String) -> String? {
        guard origin.contains("://") else { return origin }  // opaque: exact string
        guard let components = URLComponents(string: origin), let scheme = components.scheme?.lowercased(),
            let host = components.host?.lowercased(), !host.isEmpty,
            components.path.isEmpty, components.query == nil, components.fragment == nil,
            components.user == nil, components.password == nil
        else {
            return nil
        }
        guard let port = components.port ?? defaultPorts[scheme] else { return "\(scheme)://\(host)" }
        return "\(scheme)://\(host):\(port)"
    }

    /// RFC 6454 §4 step 5: the default port of schemes that have one.
    private static let defaultPorts: [String: Int] = ["https": 443, "http": 80]
}
