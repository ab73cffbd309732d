/// A parsed route pattern such as `/device-keys/{key_id}/challenges`: literal segments and `{name}` parameters.
struct RoutePattern: Sendable, Hashable {
    /// One '/'-separated segment of a pattern.
    enum Segment: Sendable, Hashable {
        /// Must equal the request's segment exactly (case-sensitive, RFC 3986 §6.2.2.1).
        case literal(String)
        /// Matches any non-empty segment and captures it under this name.
        case parameter(String)

        var isLiteral: Bool {
            if case .literal = self { return true }
            return false
        }
    }

    /// The pattern as registered.
    let text: String
    /// Its segments (the text after the leading '/', split on '/').
    let segments: [Segment]

    /// Parses `text`. Patterns are program text, so a malformed one is a programming error.
    init(_ text: String) {
        precondition(text.hasPrefix("/"), "route pattern \"\(text)\" must start with '/'")
        var names = Set<String>()
        segments = text.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map { part in
            if part.hasPrefix("{") && part.hasSuffix("}") && part.count > 2 {
                let name = String(part.dropFirst().dropLast())
                precondition(names.insert(name).inserted, "route pattern \"\(text)\" repeats {\(name)}")
                return .parameter(name)
            }
            precondition(!part.contains("{") && !part.contains("}"), "malformed segment in \"\(text)\"")
            return .literal(String(part))
        }
        self.text = text
    }

    /// The captured parameters when `pathSegments` matches, otherwise `nil`.
    func match(_ pathSegments: [Substring]) -> [String: String]? {
        guard pathSegments.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, actual) in zip(segments, pathSegments) {
            switch segment {
            case .literal(let literal):
                guard actual == literal else { return nil }
            case .parameter(let name):
                guard !actual.isEmpty else { return nil }
                parameters[name] = String(actual)
            }
        }
        return parameters
    }

    /// Whether this pattern is more specific than `other` (both matching the same path): at the first
    /// position where one has a literal and the other a parameter, the literal wins.
    func isMoreSpecific(than other: RoutePattern) -> Bool {
        for (mine, theirs) in zip(segments, other.segments) where mine.isLiteral != theirs.isLiteral {
            return mine.isLiteral
        }
        return false
    }
}
