/// Compact JSON serialisation of `JSONValue` and of single strings (RFC 8259).
///
/// Strings are escaped exactly as RFC 8785 §3.2.2.2 prescribes, so this writer and `JCS` share one string
/// form: what differs between them is only member order and number text.
public enum JSONWriter {
    /// Appends `value`, members in order, numbers as their stored text, no insignificant whitespace.
    public static func append(_ value: JSONValue, to output: inout [UInt8]) {
        switch value {
        case .string(let string):
            appendString(string, to: &output)
        case .number(let text):
            output.append(contentsOf: text.utf8)
        case .bool(let flag):
            output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .null:
            output.append(contentsOf: "null".utf8)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                append(element, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (position, member) in members.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                appendString(member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                append(member.value, to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Appends `string` as a JSON string.
    ///
    /// RFC 8259 §7: '"', '\\' and U+0000…U+001F must be escaped. RFC 8785 §3.2.2.2 fixes how: the five short
    /// escapes \b \t \n \f \r, other controls as \u00xx in lower-case hex, '/' and everything else as UTF-8.
    public static func appendString(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        // Fast path for the common case (names, identifiers, base64url): nothing to escape, so the UTF-8 is
        // copied in one go instead of byte by byte.
        let copied = string.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard !bytes.contains(where: needsEscape) else { return false }
            output.append(contentsOf: bytes)
            return true
        }
        if copied == true {
            output.append(UInt8(ascii: "\""))
            return
        }
        appendEscaped(string, to: &output)
        output.append(UInt8(ascii: "\""))
    }

    /// Whether RFC 8259 §7 requires `byte` to be escaped: '"', '\\' and the controls U+0000…U+001F.
    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// The string's bytes with the escapes of RFC 8785 §3.2.2.2, without the surrounding quotes.
    private static func appendEscaped(_ string: String, to output: inout [UInt8]) {
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): output.append(contentsOf: #"\\"#.utf8)
            case 0x08: output.append(contentsOf: #"\b"#.utf8)
            case 0x09: output.append(contentsOf: #"\t"#.utf8)
            case 0x0A: output.append(contentsOf: #"\n"#.utf8)
            case 0x0C: output.append(contentsOf: #"\f"#.utf8)
            case 0x0D: output.append(contentsOf: #"\r"#.utf8)
            case 0x00..<0x20:
                output.append(contentsOf: #"\u00"#.utf8)
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            default:
                output.append(byte)
            }
        }
    }

    /// Lower-case hexadecimal digits (RFC 8785 §3.2.2.2 asks for lower case).
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}
