import Foundation
import JSON

/// Configuration text (the file, `.json` environment values) read by the JSON module's parser, the one reader of
/// JSON in passkeyd, and handed to `ConfigObject` in the Foundation shapes it reads (`String`, `NSNumber`, `[Any]`,
/// `[String: Any]`, `NSNull`). A key given twice in one object is an error at start, naming it: RFC 8259 §4 leaves
/// duplicates to the parser, and a setting must not silently take one of two values. Either error says the line and
/// column where the parser stopped.
package enum ConfigJSON {
    /// Parses `bytes`; `field` names the file or variable in the error.
    package static func parse(_ bytes: [UInt8], field: String) throws(ConfigurationError) -> Any {
        do {
            return foundationValue(try JSONValue(parsing: bytes))
        } catch {
            let place = error.offset.map { " at \(position(of: $0, in: bytes))" } ?? ""
            let what = error.code == .duplicateMemberName ? "repeats a key" : "is not valid JSON"
            throw ConfigurationError(field: field, reason: "\(what)\(place) (\(error.reason))")
        }
    }

    /// "line L, column C" of the byte at `offset` (both from 1; the column counts characters, a tab as one).
    package static func position(of offset: Int, in bytes: [UInt8]) -> String {
        let before = bytes[..<min(max(offset, 0), bytes.count)]
        let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? before.startIndex
        let line = before.count { $0 == UInt8(ascii: "\n") } + 1
        let column = String(decoding: before[lineStart...], as: UTF8.self).count + 1
        return "line \(line), column \(column)"
    }

    /// The value as `JSONSerialization` would give it: a boolean as the boolean `NSNumber` (which
    /// `ConfigObject` tells from the numbers 0 and 1), an integer as an integer `NSNumber`.
    package static func foundationValue(_ value: JSONValue) -> Any {
        switch value {
        case .string(let text): return text
        case .bool(let flag): return NSNumber(value: flag)
        case .null: return NSNull()
        case .number(let text):
            if let integer = Int(text) { return NSNumber(value: integer) }
            return NSNumber(value: Double(text) ?? .nan)
        case .array(let elements): return elements.map(foundationValue)
        case .object(let members):
            var dictionary: [String: Any] = [:]
            for member in members { dictionary[member.key] = foundationValue(member.value) }
            return dictionary
        }
    }
}
