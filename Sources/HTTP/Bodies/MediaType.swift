/// A parsed `Content-Type` value (RFC 9110 §8.3.1): `type/subtype *( OWS ";" OWS parameter )`.
struct MediaType: Equatable {
    /// `type/subtype`, lower-cased (media types are case-insensitive, RFC 9110 §8.3.1).
    let essence: String
    /// The `charset` parameter, lower-cased and unquoted, when present.
    let charset: String?

    /// `application/json` (RFC 8259 §11).
    static let json = "application/json"
    /// `application/json; charset=utf-8`, as most HTTP clients spell a JSON body's type.
    static let jsonUTF8 = "application/json; charset=utf-8"
    /// `application/x-www-form-urlencoded` (WHATWG URL §5, RFC 6749 appendix B).
    static let form = "application/x-www-form-urlencoded"

    init?(_ headerValue: String) {
        // The value nearly every client sends, recognised without splitting and lower-casing.
        if headerValue == Self.json || headerValue == Self.jsonUTF8 {
            self.essence = Self.json
            self.charset = headerValue == Self.json ? nil : "utf-8"
            return
        }
        let parts = headerValue.split(separator: ";", omittingEmptySubsequences: false)
        guard let first = parts.first else { return nil }
        let essence = first.trimmingASCIIWhitespace().lowercased()
        let slash = essence.firstIndex(of: "/")
        guard let slash, slash != essence.startIndex, essence.index(after: slash) != essence.endIndex else {
            return nil
        }
        var charset: String?
        for parameter in parts.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            if pair[0].trimmingASCIIWhitespace().lowercased() == "charset" {
                var value = pair[1].trimmingASCIIWhitespace()
                // RFC 9110 §5.6.6: parameter values may be quoted-strings.
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                    value = value.dropFirst().dropLast()
                }
                charset = value.lowercased()
            }
        }
        self.essence = essence
        self.charset = charset
    }

    /// Whether the charset is absent or UTF-8 (the only encoding RFC 8259 §8.1 allows for JSON).
    var isUTF8OrUnspecified: Bool {
        charset == nil || charset == "utf-8" || charset == "utf8"
    }
}

extension Substring {
    /// The substring without leading and trailing spaces and tabs (RFC 9110 §5.6.3 OWS).
    func trimmingASCIIWhitespace() -> Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }
}
