/// The JSON Canonicalization Scheme (RFC 8785): one byte sequence per JSON value, so that a signature over
/// the bytes is a signature over the value.
public enum JCS {
    /// Serialises `value` canonically as UTF-8 (RFC 8785 §3.2.4).
    /// - Throws: `.nonFiniteNumber` when a number's text is not a JSON number or its double value is not
    ///   finite (RFC 8785 §3.2.2.3); `.duplicateMemberName` when an object repeats a name (RFC 8785 §3.1
    ///   requires I-JSON, RFC 7493 §2.3).
    public static func canonicalBytes(_ value: JSONValue) throws(JSONError) -> [UInt8] {
        var output: [UInt8] = []
        try write(value, into: &output)
        return output
    }

    private static func write(_ value: JSONValue, into output: inout [UInt8]) throws(JSONError) {
        switch value {
        // RFC 8785 §3.2.2.1: literals are emitted as is.
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let text): output.append(contentsOf: try ECMAScriptNumber.string(for: doubleValue(text)).utf8)
        // RFC 8785 §3.2.2.2: the writer's string form is the canonical one.
        case .string(let text): JSONWriter.appendString(text, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                try write(element, into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            // RFC 8785 §3.2.3: members sorted by their names as arrays of UTF-16 code units, compared unsigned.
            let sorted = members.sorted { $0.key.utf16.lexicographicallyPrecedes($1.key.utf16) }
            output.append(UInt8(ascii: "{"))
            for (index, member) in sorted.enumerated() {
                if index > 0 {
                    // RFC 7493 §2.3: names are unique; after sorting, a repeat sits next to its twin.
                    guard sorted[index - 1].key != member.key else {
                        throw JSONError(.duplicateMemberName, "member \"\(member.key)\" appears twice")
                    }
                    output.append(UInt8(ascii: ","))
                }
                JSONWriter.appendString(member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                try write(member.value, into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// RFC 8785 §3.2.2.3: a number is its IEEE 754 double value. The text must be an RFC 8259 §6 number
    /// (Swift's `Double(_:)` would also take "inf", "nan" or hexadecimal floats, which JSON has not).
    private static func doubleValue(_ text: String) throws(JSONError) -> Double {
        guard case .number(text)? = try? JSONValue(parsing: Array(text.utf8), maximumDepth: 0),
            let value = Double(text)
        else {
            throw JSONError(.nonFiniteNumber, "\"\(text)\" is not a JSON number")
        }
        // Double(_:) rounds correctly (strtod) and overflows to ±Infinity, which has no JSON form.
        guard value.isFinite else { throw JSONError(.nonFiniteNumber, "number \(text) overflows a double") }
        return value
    }
}
