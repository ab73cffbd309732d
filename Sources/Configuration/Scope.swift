/// An OAuth scope (RFC 6749 §3.3): space-delimited tokens, order kept, duplicates dropped.
package struct Scope: Sendable, Equatable {
    /// The scope tokens in request order.
    package let tokens: [String]

    /// The scope granted when a request names none: an OIDC login with the profile claims.
    package static let `default` = Scope(uncheckedTokens: ["openid", "profile", "email"])

    private init(uncheckedTokens: [String]) { tokens = uncheckedTokens }

    /// The scope of the one token `token`: for the server's own constants (e.g. `RecoveryToken.scope`), never for
    /// request input, which goes through `init(parsing:)`.
    package static func only(_ token: String) -> Scope { Scope(uncheckedTokens: [token]) }

    /// Up to this many distinct tokens, duplicates are found by a linear search (bounded work per token).
    package static let linearLookupLimit = 16

    /// Parses a `scope` parameter; `nil` when a token has a character outside NQCHAR or the value is too long.
    package init?(parsing text: String) {
        guard text.utf8.count <= 1024 else { return nil }
        var seen = Set<String>()
        var tokens: [String] = []
        for token in text.split(separator: " ") {
            // RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E )
            guard
                token.unicodeScalars.allSatisfy({
                    $0.value == 0x21 || (0x23...0x5B).contains($0.value)
                        || (0x5D...0x7E).contains($0.value)
                })
            else { return nil }
            let name = String(token)
            // A handful of tokens is the rule: a linear look-up until there are enough for hashing to pay.
            if tokens.count < Self.linearLookupLimit {
                if !tokens.contains(name) { tokens.append(name) }
            } else {
                if seen.isEmpty { seen = Set(tokens) }
                if seen.insert(name).inserted { tokens.append(name) }
            }
        }
        self.tokens = tokens
    }

    /// The tokens for which `isIncluded` holds, order kept.
    package func filter(_ isIncluded: (String) -> Bool) -> Scope { Scope(uncheckedTokens: tokens.filter(isIncluded)) }

    /// The scope of `tokens` the configuration checked (a client grant's), each once: never for request input.
    package static func configured(_ tokens: [String]) -> Scope {
        Scope(uncheckedTokens: []).adding(tokens)
    }

    /// This scope and then those of `others` it lacks, each once: for scope tokens the configuration checked (a
    /// client's refresh token policy), never for request input.
    package func adding(_ others: [String]) -> Scope {
        var tokens = self.tokens
        for token in others where !tokens.contains(token) { tokens.append(token) }
        return Scope(uncheckedTokens: tokens)
    }

    /// Whether every token of `self` is in `other`.
    package func isSubset(of other: Scope) -> Bool { tokens.allSatisfy(other.contains) }

    /// Whether `token` was granted.
    package func contains(_ token: String) -> Bool { tokens.contains(token) }

    /// The space-separated form.
    package var text: String { tokens.joined(separator: " ") }
}
