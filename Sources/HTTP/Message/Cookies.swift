/// Reading the `Cookie` field of a request (RFC 6265 §5.4, the syntax of §4.2.1), leniently as servers do: pairs
/// separated by `;`, the name up to the first `=`, spaces and tabs around name and value dropped. Several `Cookie` fields (HTTP/2
/// may split one, RFC 9113 §8.2.3) are read in order as one list.
extension Request {
    /// The values of every cookie called `name` (compared exactly: cookie names are case-sensitive), in the order
    /// the client sent them (RFC 6265 §5.4 step 2: longer paths first, then older first).
    public func cookieValues(named name: String) -> [String] {
        var found: [String] = []
        for field in headers.values(for: "Cookie") {
            for pair in field.split(separator: ";", omittingEmptySubsequences: true) {
                guard let equals = pair.firstIndex(of: "=") else { continue }
                guard Self.trimmed(pair[..<equals]) == name else { continue }
                var value = Self.trimmed(pair[pair.index(after: equals)...])
                // §4.1.1: a value may be enclosed in double quotes, which are not part of it.
                if value.count >= 2, value.first == "\"", value.last == "\"" { value = value.dropFirst().dropLast() }
                found.append(String(value))
            }
        }
        return found
    }

    /// `text` without the spaces and tabs around it (RFC 6265 §5.2 step 4–5, as a lenient reader applies them).
    private static func trimmed(_ text: Substring) -> Substring {
        var text = text.drop { $0 == " " || $0 == "\t" }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }

    /// The value of the one cookie called `name`; `nil` when there is none, or more than one (a cookie of that name
    /// set for another path or by a sibling domain would shadow ours: no guessing which is which).
    public func cookie(named name: String) -> String? {
        let values = cookieValues(named: name)
        return values.count == 1 ? values[0] : nil
    }
}

/// One `Set-Cookie` field value (RFC 6265 §4.1; `SameSite`, RFC 6265bis §4.1.2.7). A response sets several cookies
/// with one `Set-Cookie` field each (`HTTPHeaders.add`), never folded into one line (RFC 9110 §5.3).
public struct SetCookie: Sendable, Equatable {
    /// The `SameSite` attribute's values.
    public enum SameSite: String, Sendable, Equatable {
        case strict = "Strict"
        case lax = "Lax"
        case none = "None"
    }

    /// The cookie's name: a token (RFC 9110 §5.6.2).
    public var name: String
    /// The cookie's value: cookie-octets only (RFC 6265 §4.1.1; base64url is), written as given.
    public var value: String
    /// Seconds until the user agent drops the cookie (`Max-Age`); 0 removes it at once (§5.2.2); `nil` for a
    /// cookie that ends with the browsing session.
    public var maxAge: Int?
    /// The `Path` attribute.
    public var path: String
    /// Whether it is sent over secure channels only (`Secure`).
    public var secure: Bool
    /// Whether scripts cannot read it (`HttpOnly`).
    public var httpOnly: Bool
    /// The `SameSite` attribute.
    public var sameSite: SameSite

    /// A cookie for the whole origin (`Path=/`), `HttpOnly`, with no `Domain` (host-only, §5.3 step 6).
    public init(
        name: String, value: String, maxAge: Int?, secure: Bool, sameSite: SameSite, path: String = "/",
        httpOnly: Bool = true
    ) {
        self.name = name
        self.value = value
        self.maxAge = maxAge
        self.path = path
        self.secure = secure
        self.httpOnly = httpOnly
        self.sameSite = sameSite
    }

    /// The field value, e.g. `__Host-a=b; Path=/; Max-Age=60; Secure; HttpOnly; SameSite=Lax`.
    public var fieldValue: String {
        var text = "\(name)=\(value); Path=\(path)"
        if let maxAge { text += "; Max-Age=\(max(0, maxAge))" }
        if secure { text += "; Secure" }
        if httpOnly { text += "; HttpOnly" }
        text += "; SameSite=\(sameSite.rawValue)"
        return text
    }
}

extension Response {
    /// Adds a `Set-Cookie` field for `cookie`, keeping the ones already there.
    public mutating func setCookie(_ cookie: SetCookie) {
        headers.add(name: "Set-Cookie", value: cookie.fieldValue)
    }

    /// The `Set-Cookie` field values, in order.
    public var setCookies: [String] { headers.values(for: "Set-Cookie") }
}
