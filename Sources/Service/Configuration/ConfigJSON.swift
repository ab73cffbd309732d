import Foundation
import JSON

/// Configuration text (the file, `.json` environment values) read by the JSON module's parser, the one reader of
/// JSON in passkeyd, and handed to `ConfigObject` in the Foundation shapes it reads (`String`, `NSNumber`, `[Any]`,
/// `[String: Any]`, `NSNull`). A key given twice in one object is an error at start, naming it: RFC 8259 §4 leaves
/// duplicates to the parser, and a setting must not silently take one of two values.
package enum ConfigJSON {
    /// Parses `bytes`; `field` names the file or variable in the error.
    package static func parse(_ bytes: [UInt8], field: String) throws(ConfigurationError) -> Any {
        do {
            return foundationValue(try JSONValue(parsing: bytes))
        } catch  where error.code == .duplicateMemberName {
            throw ConfigurationError(field: field, reason: "repeats a key (\(error.reason))")
        } catch {
            throw ConfigurationError(field: field, reason: "is not valid JSON (\(error.reason))")
        }
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
