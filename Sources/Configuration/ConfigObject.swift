import Foundation
import JSON

/// A read-only view of one JSON object of the configuration that knows its own path, so every error
/// names the exact field, and that remembers which keys were read, so a misspelt key is reported
/// instead of silently ignored.
package final class ConfigObject {
    /// Every path read through an object and the objects it hands out: how a test proves that the reader reads
    /// exactly the settings of the table.
    package final class ReadLog {
        package var paths: Set<String> = []
        package init() {}
    }

    package let path: String
    private let values: [String: Any]
    private var readKeys: Set<String> = []
    private let log: ReadLog?

    package init(_ values: [String: Any], path: String, log: ReadLog? = nil) {
        self.values = values
        self.path = path
        self.log = log
    }

    /// An object below this one, sharing its read log.
    package func child(_ values: [String: Any], path: String) -> ConfigObject {
        ConfigObject(values, path: path, log: log)
    }

    private func fieldPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    private func raw(_ key: String) -> Any? {
        readKeys.insert(key)
        log?.paths.insert(fieldPath(key))
        guard let value = values[key], !(value is NSNull) else { return nil }
        return value
    }

    package func error(_ key: String, _ reason: String) -> ConfigurationError {
        ConfigurationError(field: fieldPath(key), reason: reason)
    }

    package func string(_ key: String, default fallback: String? = nil) throws(ConfigurationError) -> String {
        guard let value = raw(key) else {
            if let fallback { return fallback }
            throw error(key, "is required")
        }
        guard let text = value as? String else { throw error(key, "must be a string") }
        return text
    }

    package func optionalString(_ key: String) throws(ConfigurationError) -> String? {
        guard let value = raw(key) else { return nil }
        guard let text = value as? String else { throw error(key, "must be a string") }
        return text
    }

    package func int(_ key: String, default fallback: Int, range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
        try optionalInt(key, range: range) ?? fallback
    }

    /// The integer at `key` within `range`, or nil when absent (a setting whose absence means "not set").
    package func optionalInt(_ key: String, range: ClosedRange<Int>) throws(ConfigurationError) -> Int? {
        guard let value = raw(key) else { return nil }
        // JSONSerialization yields NSNumber; a Bool is also an NSNumber, so rule it out explicitly.
        guard let number = value as? NSNumber, !Self.isBoolean(number),
            let integer = Int(exactly: number.doubleValue)
        else { throw error(key, "must be an integer") }
        guard range.contains(integer) else {
            throw error(key, "must be between \(range.lowerBound) and \(range.upperBound), got \(integer)")
        }
        return integer
    }

    /// JSONSerialization returns JSON booleans as a distinct NSNumber subclass; numbers 0 and 1 are not booleans.
    package static func isBoolean(_ number: NSNumber) -> Bool {
        type(of: number) == type(of: NSNumber(value: true))
    }

    package func bool(_ key: String, default fallback: Bool) throws(ConfigurationError) -> Bool {
        guard let value = raw(key) else { return fallback }
        guard let number = value as? NSNumber, Self.isBoolean(number) else {
            throw error(key, "must be true or false")
        }
        return number.boolValue
    }

    package func stringArray(_ key: String, default fallback: [String] = []) throws(ConfigurationError) -> [String] {
        guard let value = raw(key) else { return fallback }
        guard let array = value as? [Any] else { throw error(key, "must be an array of strings") }
        var result: [String] = []
        for (index, element) in array.enumerated() {
            guard let text = element as? String else { throw error("\(key)[\(index)]", "must be a string") }
            result.append(text)
        }
        return result
    }

    /// The value of `key` as JSON (an object or array handed to a parser of its own, e.g. a JWK set), nil when absent.
    package func json(_ key: String) throws(ConfigurationError) -> JSONValue? {
        guard let value = raw(key) else { return nil }
        guard JSONSerialization.isValidJSONObject(value),
            let data = try? JSONSerialization.data(withJSONObject: value),
            let parsed = try? JSONValue(parsing: Array(data))
        else { throw error(key, "must be a JSON object or array") }
        return parsed
    }

    package func object(_ key: String) throws(ConfigurationError) -> ConfigObject? {
        guard let value = raw(key) else { return nil }
        guard let dictionary = value as? [String: Any] else { throw error(key, "must be an object") }
        return child(dictionary, path: fieldPath(key))
    }

    package func objectArray(_ key: String) throws(ConfigurationError) -> [ConfigObject] {
        guard let value = raw(key) else { return [] }
        guard let array = value as? [Any] else { throw error(key, "must be an array of objects") }
        var result: [ConfigObject] = []
        for (index, element) in array.enumerated() {
            guard let dictionary = element as? [String: Any] else {
                throw error("\(key)[\(index)]", "must be an object")
            }
            result.append(child(dictionary, path: fieldPath("\(key)[\(index)]")))
        }
        return result
    }

    /// Refuses keys that no reader asked for: a misspelt setting must not be silently ignored. The error names the
    /// nearest key this object knows (`http.thread` → "did you mean http.threads?") or, at the top level, the nearest
    /// setting of a section (`max_body_byte` → "did you mean http.max_body_bytes?").
    package func rejectUnknownKeys() throws(ConfigurationError) {
        guard let unknown = values.keys.filter({ !readKeys.contains($0) }).sorted().first else { return }
        var suggestion = NearestName.nearest(to: unknown, among: readKeys).map(fieldPath)
        if suggestion == nil, path.isEmpty {
            let elsewhere = Settings.all.filter { !$0.section.isEmpty }
            let name = NearestName.nearest(to: unknown, among: Set(elsewhere.map(\.name)))
            suggestion = elsewhere.first { $0.name == name }?.key
        }
        throw error(unknown, NearestName.unknown(suggestion: suggestion))
    }
}
