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
        text += "\"\(Self.escape(key))\":"
        Self.appendThreeDecimals(value, to: &text)
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

    /// RFC 3339 UTC with milliseconds (`YYYY-MM-DDTHH:MM:SS.mmmZ`), written digit by digit: a line per request must
    /// not pay for Foundation's formatting (issue 35, "Cheap per-request work").
    package static func timestamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        let millis = Int((date.timeIntervalSince1970 - Double(seconds)) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var out = ""
        out.reserveCapacity(24)
        appendDigits(Int(parts.tm_year) + 1900, count: 4, to: &out)
        out += "-"
        appendDigits(Int(parts.tm_mon) + 1, count: 2, to: &out)
        out += "-"
        appendDigits(Int(parts.tm_mday), count: 2, to: &out)
        out += "T"
        appendDigits(Int(parts.tm_hour), count: 2, to: &out)
        out += ":"
        appendDigits(Int(parts.tm_min), count: 2, to: &out)
        out += ":"
        appendDigits(Int(parts.tm_sec), count: 2, to: &out)
        out += "."
        appendDigits(millis, count: 3, to: &out)
        out += "Z"
        return out
    }

    /// `value` in decimal, zero-padded as `%0*d` pads it: to `count` characters, a negative value's sign included.
    private static func appendDigits(_ value: Int, count: Int, to out: inout String) {
        let digits = String(value.magnitude)
        let width = value < 0 ? count - 1 : count
        if value < 0 { out += "-" }
        if digits.utf8.count < width { out += String(repeating: "0", count: width - digits.utf8.count) }
        out += digits
    }

    /// `value` with three decimals, byte for byte as `%.3f` writes it: rounded to the nearest thousandth from its
    /// exact binary value, ties to even. The product `value × 1000` is rounded once; its exact rounding error (a
    /// fused multiply-add) decides the halves the product cannot (0.0005 is a little over a half-thousandth, so it
    /// rounds up, as printf rounds it). Values too large for exact integer thousandths, and NaN and infinities,
    /// which no duration is, go to `String(format:)`.
    package static func appendThreeDecimals(_ value: Double, to out: inout String) {
        let magnitude = value.magnitude
        let product = magnitude * 1000
        guard value.isFinite, product < 1e15 else {
            out += String(format: "%.3f", value)
            return
        }
        let error = Self.productError(magnitude, product)
        let floor = product.rounded(.down)
        let fraction = product - floor  // exact: both are below 2^53 and within one of each other
        var thousandths = Int(floor)
        if fraction > 0.5 || (fraction == 0.5 && (error > 0 || (error == 0 && thousandths % 2 == 1))) {
            thousandths += 1
        }
        if value.sign == .minus { out += "-" }
        out += String(thousandths / 1000)
        out += "."
        appendDigits(thousandths % 1000, count: 3, to: &out)
    }

    /// The exact error of the rounded product `magnitude × 1000`: `magnitude × 1000 − product`, by a fused
    /// multiply-add (exact, as 1000 is).
    private static func productError(_ magnitude: Double, _ product: Double) -> Double {
        (-product).addingProduct(magnitude, 1000)
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
                out += "\\u"
                for shift in stride(from: 12, through: 0, by: -4) {
                    out.unicodeScalars.append(hexDigits[Int(scalar.value >> UInt32(shift)) & 0xF])
                }
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static let hexDigits: [Unicode.Scalar] = Array("0123456789abcdef".unicodeScalars)
}
