import Foundation

/// One structured log line: a JSON object with fields in a fixed order. Values are escaped so that no
/// control character, quote or newline from a request can forge or split a log line.
public struct LogLine: Sendable {
    private var text = "{"
    private var first = true

    /// Starts a line with its UTC time and level.
    public init(time: Date, level: String, message: String) {
        add("time", Self.timestamp(time))
        add("level", level)
        add("msg", message)
    }

    /// The longest string value written, in UTF-8 bytes; a longer one is cut and marked with `truncationMark`.
    /// Values can carry what a client sent (a path, a header in an error's reason): the bound keeps one request
    /// from writing kilobytes of its own text into the log.
    public static let maximumValueBytes = 1_024
    /// Ends a value cut at `maximumValueBytes`.
    public static let truncationMark = "…[truncated]"

    /// Adds a string field, escaped and bounded (`maximumValueBytes`).
    public mutating func add(_ key: String, _ value: String) {
        separator()
        text += "\"\(Self.escape(key))\":\"\(Self.escape(Self.bounded(value)))\""
    }

    /// Adds a number field.
    public mutating func add(_ key: String, _ value: Int) {
        separator()
        text += "\"\(Self.escape(key))\":\(value)"
    }

    /// Adds a number field with three decimals (milliseconds).
    public mutating func add(_ key: String, milliseconds value: Double) {
        separator()
        text += "\"\(Self.escape(key))\":\(String(format: "%.3f", value))"
    }

    /// The finished line, newline-terminated.
    public var rendered: String { text + "}\n" }

    private mutating func separator() {
        if !first { text += "," }
        first = false
    }

    /// `value`, or its longest prefix of whole Unicode scalars within `maximumValueBytes` plus `truncationMark`.
    package static func bounded(_ value: String) -> String {
        guard value.utf8.count > maximumValueBytes else { return value }
        var prefix = String.UnicodeScalarView()
        var bytes = 0
        for scalar in value.unicodeScalars {
            bytes += UTF8.width(scalar)
            if bytes > maximumValueBytes { break }
            prefix.append(scalar)
        }
        return String(prefix) + truncationMark
    }

    /// RFC 3339 UTC with milliseconds.
    package static func timestamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        let millis = Int((date.timeIntervalSince1970 - Double(seconds)) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
            Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), millis)
    }

    /// JSON string escaping (RFC 8259 §7) plus DEL and the Unicode line separators, which some log viewers
    /// treat as line breaks.
    package static func escape(_ value: String) -> String {
        var out = ""
        out.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _
            where scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x2028 || scalar.value == 0x2029:
                out += String(format: "\\u%04x", scalar.value)
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
