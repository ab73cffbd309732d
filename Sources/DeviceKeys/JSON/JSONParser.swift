/// A strict RFC 8259 JSON parser producing `JSONValue`, written so that it can refuse what
/// `JSONSerialization` silently accepts: duplicate member names (RFC 7493 §2.3), lone surrogates
/// (RFC 7493 §2.1), numbers that overflow a double, and trailing bytes.
public enum JSONParser {
    /// Nesting limit applied while parsing, so hostile input cannot exhaust the stack. Action-level
    /// limits (depth 5) are stricter and checked later by `DeviceAction`.
    public static let defaultMaxDepth = 32

    /// Parses exactly one JSON value (surrounding whitespace allowed, nothing else).
    /// - Throws: `.invalidJSON`, `.duplicateMemberName`, `.nonFiniteNumber`.
    public static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(DeviceKeyError) -> JSONValue {
        var reader = Reader(bytes: bytes, maxDepth: maxDepth)
        reader.skipWhitespace()
        let value = try reader.readValue(depth: 0)
        reader.skipWhitespace()
        // RFC 8259 §2: JSON-text = ws value ws
        guard reader.isAtEnd else { throw DeviceKeyError(.invalidJSON, "trailing bytes at offset \(reader.offset)") }
        return value
    }

    /// A bounds-checked cursor over the input bytes.
    private struct Reader {
        let bytes: [UInt8]
        let maxDepth: Int
        var offset = 0

        init(bytes: [UInt8], maxDepth: Int) {
            self.bytes = bytes
            self.maxDepth = maxDepth
        }

        var isAtEnd: Bool { offset >= bytes.count }

        func peek() -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

        mutating func next() throws(DeviceKeyError) -> UInt8 {
            guard offset < bytes.count else { throw DeviceKeyError(.invalidJSON, "unexpected end of input") }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func expect(_ byte: UInt8) throws(DeviceKeyError) {
            let found = try next()
            guard found == byte else {
                throw DeviceKeyError(.invalidJSON, "expected '\(Unicode.Scalar(byte))' at offset \(offset - 1)")
            }
        }

        /// RFC 8259 §2: ws = *( %x20 / %x09 / %x0A / %x0D )
        mutating func skipWhitespace() {
            while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { offset += 1 }
        }

        mutating func readValue(depth: Int) throws(DeviceKeyError) -> JSONValue {
            guard let byte = peek() else { throw DeviceKeyError(.invalidJSON, "unexpected end of input") }
            switch byte {
            case UInt8(ascii: "{"): return try readObject(depth: depth + 1)
            case UInt8(ascii: "["): return try readArray(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try readString())
            case UInt8(ascii: "t"): try readLiteral("true"); return .bool(true)
            case UInt8(ascii: "f"): try readLiteral("false"); return .bool(false)
            case UInt8(ascii: "n"): try readLiteral("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try readNumber())
            default:
                throw DeviceKeyError(.invalidJSON, "unexpected byte 0x\(String(byte, radix: 16)) at offset \(offset)")
            }
        }

        mutating func readLiteral(_ literal: String) throws(DeviceKeyError) {
            for byte in literal.utf8 { try expect(byte) }
        }

        mutating func readObject(depth: Int) throws(DeviceKeyError) -> JSONValue {
            guard depth <= maxDepth else { throw DeviceKeyError(.invalidJSON, "nesting deeper than \(maxDepth)") }
            try expect(UInt8(ascii: "{"))
            var members: [String: JSONValue] = [:]
            skipWhitespace()
            if peek() == UInt8(ascii: "}") {
                offset += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard peek() == UInt8(ascii: "\"") else {
                    throw DeviceKeyError(.invalidJSON, "member name expected at offset \(offset)")
                }
                let name = try readString()
                skipWhitespace()
                try expect(UInt8(ascii: ":"))
                skipWhitespace()
                let value = try readValue(depth: depth)
                // RFC 7493 §2.3: objects MUST NOT have members with duplicate names.
                guard members.updateValue(value, forKey: name) == nil else {
                    throw DeviceKeyError(.duplicateMemberName, "member \"\(name)\" appears twice")
                }
                skipWhitespace()
                switch try next() {
                case UInt8(ascii: ","): continue
                case UInt8(ascii: "}"): return .object(members)
                default: throw DeviceKeyError(.invalidJSON, "',' or '}' expected at offset \(offset - 1)")
                }
            }
        }

        mutating func readArray(depth: Int) throws(DeviceKeyError) -> JSONValue {
            guard depth <= maxDepth else { throw DeviceKeyError(.invalidJSON, "nesting deeper than \(maxDepth)") }
            try expect(UInt8(ascii: "["))
            var elements: [JSONValue] = []
            skipWhitespace()
            if peek() == UInt8(ascii: "]") {
                offset += 1
                return .array(elements)
            }
            while true {
                skipWhitespace()
                elements.append(try readValue(depth: depth))
                skipWhitespace()
                switch try next() {
                case UInt8(ascii: ","): continue
                case UInt8(ascii: "]"): return .array(elements)
                default: throw DeviceKeyError(.invalidJSON, "',' or ']' expected at offset \(offset - 1)")
                }
            }
        }

        /// RFC 8259 §7 strings; the result must be valid Unicode (RFC 7493 §2.1).
        mutating func readString() throws(DeviceKeyError) -> String {
            try expect(UInt8(ascii: "\""))
            var utf8: [UInt8] = []
            while true {
                let byte = try next()
                switch byte {
                case UInt8(ascii: "\""):
                    guard let text = String(validating: utf8, as: UTF8.self) else {
                        throw DeviceKeyError(.invalidJSON, "string is not valid UTF-8")
                    }
                    return text
                case UInt8(ascii: "\\"):
                    try readEscape(into: &utf8)
                case 0x00..<0x20:
                    // RFC 8259 §7: control characters MUST be escaped.
                    throw DeviceKeyError(.invalidJSON, "unescaped control character at offset \(offset - 1)")
                default:
                    utf8.append(byte)
                }
            }
        }

        mutating func readEscape(into utf8: inout [UInt8]) throws(DeviceKeyError) {
            let escaped = try next()
            switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escaped)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                var scalarValue = UInt32(try readHex4())
                if (0xD800..<0xDC00).contains(scalarValue) {
                    // RFC 8259 §7: a supplementary-plane character is a \uHHHH\uHHHH surrogate pair.
                    try expect(UInt8(ascii: "\\"))
                    try expect(UInt8(ascii: "u"))
                    let low = UInt32(try readHex4())
                    guard (0xDC00..<0xE000).contains(low) else {
                        throw DeviceKeyError(.invalidJSON, "high surrogate not followed by a low surrogate")
                    }
                    scalarValue = 0x10000 + ((scalarValue - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(scalarValue) else {
                    throw DeviceKeyError(.invalidJSON, "lone surrogate \\u\(String(scalarValue, radix: 16))")
                }
                utf8.append(contentsOf: String(Character(scalar)).utf8)
            default:
                throw DeviceKeyError(.invalidJSON, "invalid escape at offset \(offset - 1)")
            }
        }

        mutating func readHex4() throws(DeviceKeyError) -> UInt16 {
            var value: UInt16 = 0
            for _ in 0..<4 {
                let byte = try next()
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw DeviceKeyError(.invalidJSON, "invalid \\u escape at offset \(offset - 1)")
                }
                value = value << 4 | UInt16(digit)
            }
            return value
        }

        /// RFC 8259 §6: number = [ minus ] int [ frac ] [ exp ]; int = zero / ( digit1-9 *DIGIT )
        mutating func readNumber() throws(DeviceKeyError) -> Double {
            let start = offset
            if peek() == UInt8(ascii: "-") { offset += 1 }
            guard let first = peek(), isDigit(first) else {
                throw DeviceKeyError(.invalidJSON, "digit expected at offset \(offset)")
            }
            offset += 1
            if first != UInt8(ascii: "0") { skipDigits() }
            if peek() == UInt8(ascii: ".") {
                offset += 1
                guard try requireDigits() else { throw DeviceKeyError(.invalidJSON, "fraction digits expected") }
            }
            if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
                offset += 1
                if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { offset += 1 }
                guard try requireDigits() else { throw DeviceKeyError(.invalidJSON, "exponent digits expected") }
            }
            let literal = String(decoding: bytes[start..<offset], as: UTF8.self)
            // Double(String) rounds correctly (strtod); overflow gives ±Infinity, refused below.
            guard let number = Double(literal) else { throw DeviceKeyError(.invalidJSON, "bad number \(literal)") }
            // RFC 8785 §3.2.2.3 / RFC 7493 §2.2: only finite IEEE 754 doubles are interoperable.
            guard number.isFinite else {
                throw DeviceKeyError(.nonFiniteNumber, "number \(literal) overflows a double")
            }
            return number
        }

        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

        mutating func skipDigits() {
            while let byte = peek(), isDigit(byte) { offset += 1 }
        }

        mutating func requireDigits() throws(DeviceKeyError) -> Bool {
            let start = offset
            skipDigits()
            return offset > start
        }
    }
}
