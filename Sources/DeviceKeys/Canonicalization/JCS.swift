/// The JSON Canonicalization Scheme (RFC 8785): one byte sequence per JSON value, so that a signature over
/// the bytes is a signature over the value.
public enum JCS {
    /// Serialises `value` canonically as UTF-8 (RFC 8785 §3.2.4).
    /// - Throws: `.nonFiniteNumber` when a number is NaN or ±Infinity (RFC 8785 §3.2.2.3).
    public static func canonicalBytes(_ value: JSONValue) throws(DeviceKeyError) -> [UInt8] {
        var output: [UInt8] = []
        try write(value, into: &output)
        return output
    }

    private static func write(_ value: JSONValue, into output: inout [UInt8]) throws(DeviceKeyError) {
        switch value {
        // RFC 8785 §3.2.2.1: literals are emitted as is.
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let number): output.append(contentsOf: try ECMAScriptNumber.string(for: number).utf8)
        case .string(let text): writeString(text, into: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                try write(element, into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            // RFC 8785 §3.2.3: members sorted by their names as arrays of UTF-16 code units, compared unsigned.
            let names = members.keys.sorted { $0.utf16.lexicographicallyPrecedes($1.utf16) }
            for (index, name) in names.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                writeString(name, into: &output)
                output.append(UInt8(ascii: ":"))
                if let member = members[name] { try write(member, into: &output) }
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// RFC 8785 §3.2.2.2: escape `"` and `\`, the five short control escapes, other controls as \u00xx
    /// (lowercase hex); every other code point is written as its UTF-8 bytes.
    static func writeString(_ text: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): output.append(contentsOf: #"\\"#.utf8)
            case 0x08: output.append(contentsOf: #"\b"#.utf8)
            case 0x09: output.append(contentsOf: #"\t"#.utf8)
            case 0x0A: output.append(contentsOf: #"\n"#.utf8)
            case 0x0C: output.append(contentsOf: #"\f"#.utf8)
            case 0x0D: output.append(contentsOf: #"\r"#.utf8)
            case 0x00..<0x20:
                let hex = String(byte, radix: 16)
                output.append(contentsOf: ("\\u00" + (hex.count == 1 ? "0" + hex : hex)).utf8)
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
