/// A request's `Accept` fields (RFC 9110 §12.5.1), read for proactive negotiation between the media types an endpoint
/// can answer with: each media range with its weight (`q`, RFC 9110 §12.4.2), names compared case-insensitively.
///
/// A range that does not parse (no `/`, a weight that is not a qvalue) is skipped, as RFC 9110 §12.5.1 lets a server
/// disregard what it cannot read; no `Accept` field at all accepts everything.
public struct AcceptedMediaTypes: Sendable, Equatable {
    /// One media range: `type/subtype`, `type/*` or `*/*`, lower-cased, and its weight (0 to 1).
    public struct Range: Sendable, Equatable {
        public let type: String
        public let subtype: String
        public let weight: Double
    }

    /// The ranges in the order the fields list them.
    public let ranges: [Range]
    /// Whether the request had an `Accept` field.
    public let isPresent: Bool

    /// The ranges of every `Accept` field of `headers`.
    public init(_ headers: HTTPHeaders) {
        let values = headers.values(for: "Accept")
        isPresent = !values.isEmpty
        ranges = values.flatMap { $0.split(separator: ",") }.compactMap(Self.range)
    }

    /// The weight the request gives `mediaType` (`type/subtype`): that of the most specific range that matches it
    /// (RFC 9110 §12.5.1: `type/subtype` before `type/*` before `*/*`), 0 when none does, 1 without an `Accept`
    /// field.
    public func weight(of mediaType: String) -> Double {
        guard isPresent else { return 1 }
        let parts = mediaType.lowercased().split(separator: "/", maxSplits: 1)
        guard parts.count == 2 else { return 0 }
        let (type, subtype) = (String(parts[0]), String(parts[1]))
        var best: (specificity: Int, weight: Double)?
        for range in ranges {
            let specificity: Int
            if range.type == type && range.subtype == subtype {
                specificity = 2
            } else if range.type == type && range.subtype == "*" {
                specificity = 1
            } else if range.type == "*" && range.subtype == "*" {
                specificity = 0
            } else {
                continue
            }
            if best.map({ specificity > $0.specificity }) ?? true { best = (specificity, range.weight) }
        }
        return best?.weight ?? 0
    }

    /// Whether the request names `mediaType` itself (not through a wildcard) with a non-zero weight at least that of
    /// `alternative`: what it takes to answer with a media type other than an endpoint's default, so that `*/*` or
    /// no `Accept` field keeps the default.
    public func asksFor(_ mediaType: String, over alternative: String) -> Bool {
        let named = mediaType.lowercased()
        guard ranges.contains(where: { "\($0.type)/\($0.subtype)" == named }) else { return false }
        let weight = weight(of: named)
        return weight > 0 && weight >= self.weight(of: alternative)
    }

    /// One media range with its parameters (`;` separated); `nil` for one that does not parse.
    private static func range(_ text: Substring) -> Range? {
        let pieces = text.split(separator: ";", omittingEmptySubsequences: false)
        guard let head = pieces.first else { return nil }
        let name = head.trimmingASCIIWhitespace().lowercased()
        let parts = name.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, parts[0] != "*" || parts[1] == "*" else {
            return nil
        }
        var weight = 1.0
        for parameter in pieces.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingASCIIWhitespace().lowercased() == "q" else { continue }
            guard let value = qvalue(String(pair[1].trimmingASCIIWhitespace())) else { return nil }
            weight = value
        }
        return Range(type: String(parts[0]), subtype: String(parts[1]), weight: weight)
    }

    /// RFC 9110 §12.4.2: `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )`.
    private static func qvalue(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, first == UInt8(ascii: "0") || first == UInt8(ascii: "1") else { return nil }
        if bytes.count == 1 { return first == UInt8(ascii: "1") ? 1 : 0 }
        let decimals = bytes.dropFirst(2)
        guard bytes[1] == UInt8(ascii: "."), decimals.count <= 3,
            decimals.allSatisfy({ first == UInt8(ascii: "1") ? $0 == UInt8(ascii: "0") : (0x30...0x39).contains($0) })
        else { return nil }
        return Double(text)
    }
}
