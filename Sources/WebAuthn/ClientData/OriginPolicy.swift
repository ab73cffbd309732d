import Foundation

/// Which origins a relying party accepts in client data (WebAuthn L3 §7.1 step 9, §13.4.9).
///
/// URL origins (`https://example.com:8443`) match by scheme, host and port exactly, with default ports
/// normalised (`https://rp:443` is `https://rp`); a sub-domain, another scheme or another port never
/// matches. Opaque origins such as Android's `android:apk-key-hash:<base64url>` match as exact strings.
public struct OriginPolicy: Sendable {
    /// The origins accepted in `C.origin`, as configured.
    public let allowedOrigins: [String]
    /// Whether `crossOrigin: true` (a cross-origin iframe) is acceptable.
    public let allowsCrossOrigin: Bool
    /// The pages allowed to frame the RP (`C.topOrigin`), as configured.
    public let allowedTopOrigins: [String]

    private let exactOrigins: Set<String>
    private let normalizedOrigins: Set<String>
    private let normalizedTopOrigins: Set<String>

    /// Creates a policy.
    /// - Parameters:
    ///   - allowedOrigins: origins accepted in `C.origin`.
    ///   - allowsCrossOrigin: accept `crossOrigin: true` and a `topOrigin`.
    ///   - allowedTopOrigins: origins accepted in `C.topOrigin` (only consulted when cross-origin is allowed).
    public init(allowedOrigins: [String], allowsCrossOrigin: Bool = false, allowedTopOrigins: [String] = []) {
        self.allowedOrigins = allowedOrigins
        self.allowsCrossOrigin = allowsCrossOrigin
        self.allowedTopOrigins = allowedTopOrigins
        self.exactOrigins = Set(allowedOrigins)
        self.normalizedOrigins = Set(allowedOrigins.compactMap(Self.normalize))
        self.normalizedTopOrigins = Set(allowedTopOrigins.compactMap(Self.normalize))
    }

    /// Whether `origin` is one of the allowed origins.
    public func allows(origin: String) -> Bool {
        // Fast path: the exact configured text (the common case, no URL parsing).
        if exactOrigins.contains(origin) { return true }
        guard let normalized = Self.normalize(origin) else { return false }
        return normalizedOrigins.contains(normalized)
    }

    /// Whether `topOrigin` is one of the allowed top origins.
    public func allows(topOrigin: String) -> Bool {
        guard let normalized = Self.normalize(topOrigin) else { return false }
        return normalizedTopOrigins.contains(normalized)
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
