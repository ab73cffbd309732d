import HTTP
import Testing

/// `Accept` (RFC 9110 §12.5.1): media ranges, their weights and the most specific match.
@Suite("AcceptedMediaTypes: proactive negotiation by Accept")
struct AcceptedMediaTypesTests {
    static let jwt = "application/token-introspection+jwt"

    static func accepted(_ values: String...) -> AcceptedMediaTypes {
        AcceptedMediaTypes(HTTPHeaders(values.map { ("Accept", $0) }))
    }

    @Test("without an Accept field every type weighs 1, and nothing is asked for by name")
    func absent() {
        let none = AcceptedMediaTypes(HTTPHeaders())
        #expect(!none.isPresent && none.weight(of: Self.jwt) == 1)
        #expect(!none.asksFor(Self.jwt, over: "application/json"))
    }

    @Test("the most specific range decides a type's weight (RFC 9110 §12.5.1)")
    func specificity() {
        let accept = Self.accepted("*/*;q=0.1, application/*;q=0.5, application/json")
        #expect(accept.weight(of: "application/json") == 1)
        #expect(accept.weight(of: Self.jwt) == 0.5)
        #expect(accept.weight(of: "text/html") == 0.1)
        #expect(Self.accepted("text/html").weight(of: "application/json") == 0)
    }

    @Test("names and parameters are case-insensitive, spaces around them ignored, several fields read")
    func spelling() {
        let accept = Self.accepted("text/html", " Application/Token-Introspection+JWT ; Q=0.9 ")
        #expect(accept.weight(of: Self.jwt) == 0.9)
        #expect(accept.asksFor(Self.jwt, over: "application/json"))
    }

    @Test(
        "a type named with a weight at least the alternative's is asked for; a wildcard, q=0 or a lower weight is not",
        arguments: [
            ("application/token-introspection+jwt", true),
            ("application/token-introspection+jwt, application/json", true),
            ("application/json;q=0.5, application/token-introspection+jwt", true),
            ("application/json, application/token-introspection+jwt;q=0.9", false),
            ("application/token-introspection+jwt;q=0", false),
            ("*/*", false),
            ("application/*", false),
            ("application/json", false),
        ])
    func asksFor(header: String, expected: Bool) {
        #expect(Self.accepted(header).asksFor(Self.jwt, over: "application/json") == expected, "\(header)")
    }

    @Test(
        "ranges that do not parse are skipped (RFC 9110 §12.5.1: a server may disregard them)",
        arguments: [
            "application", "*/json", "/json", "application/", "application/json;q=2", "application/json;q=0.1234",
            "application/json;q=1.5", "application/json;q=abc",
        ])
    func malformed(range: String) {
        let accept = Self.accepted("\(range), \(Self.jwt);q=0.2")
        #expect(accept.ranges.count == 1, "\(range)")
        #expect(accept.weight(of: "application/json") == 0, "\(range)")
    }

    @Test(
        "qvalues: 0 to 1 with up to three decimals",
        arguments: [
            ("0", 0.0), ("1", 1.0), ("0.", 0.0), ("0.5", 0.5),
            ("0.001", 0.001), ("1.000", 1.0),
        ])
    func qvalues(text: String, value: Double) {
        #expect(Self.accepted("application/json;q=\(text)").weight(of: "application/json") == value)
    }
}
