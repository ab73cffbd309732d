/// The rule every module's error codes follow: a code's raw value (its wire and log spelling) is snake_case —
/// words of lower-case ASCII letters and digits joined by single underscores, as RFC 6749 §5.2 spells its error
/// codes — and no two codes of one type share a spelling.
public enum ErrorCodeSpelling {
    /// Whether `text` is snake_case.
    public static func isSnakeCase(_ text: String) -> Bool {
        let words = text.split(separator: "_", omittingEmptySubsequences: false)
        return words.first?.first.map { $0 >= "a" && $0 <= "z" } == true
            && words.allSatisfy { word in
                !word.isEmpty && word.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
            }
    }

    /// The codes of `type` that break the rule, each saying how; empty when every code follows it.
    public static func violations<Code: CaseIterable & RawRepresentable>(of type: Code.Type) -> [String]
    where Code.RawValue == String {
        var seen: [String: Code] = [:]
        var violations: [String] = []
        for code in type.allCases {
            if !isSnakeCase(code.rawValue) {
                violations.append("\(code) is spelled \"\(code.rawValue)\", not snake_case")
            }
            if let earlier = seen[code.rawValue] {
                violations.append("\(code) and \(earlier) share \"\(code.rawValue)\"")
            }
            seen[code.rawValue] = code
        }
        return violations
    }
}
