/// A strict, bounds-checked JSON parser over raw bytes (RFC 8259), with the I-JSON restrictions of
/// RFC 7493: UTF-8 only, no lone surrogates, unique member names. Nesting depth is bounded so a
/// hostile body cannot exhaust the stack.
struct JSONParser {
    /// Deepest array/object nesting accepted.
    let maximumDepth: Int

    private let bytes: [UInt8]
    private var index: Int
    private var depth = 0

    init(_ bytes: [UInt8], maximumDepth: Int = JSONValue.defaultMaximumDepth) {
        self.bytes = bytes
        self.index = bytes.startIndex
        self.maximumDepth = maximumDepth
    }

    /// RFC 8259 §2: JSON-text = ws value ws, and nothing after it. An error carries the offset where parsing
    /// stopped (`JSONError.offset`).
    mutating func parseDocument() throws(JSONError) -> JSONValue {
        do throws(JSONError) {
            // RFC 8259 §8.1: a UTF-8 byte order mark may be ignored; I-JSON (RFC 7493 §2.1) is stricter: refuse it.
            skipWhitespace()
            let value = try parseValue()
            skipWhitespace()
            guard index == bytes.endIndex else {
                throw JSONError(.invalidJSON, "trailing bytes after the JSON value at offset \(index)")
            }
            return value
        } catch {
            throw error.located(at: min(index, bytes.endIndex))
        }
    }

    // MARK: values

    private mutating func parseValue() throws(JSONError) -> JSONValue {
        guard let byte = peek() else {
            throw JSONError(.invalidJSON, "unexpected end of input at offset \(index)")
        }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default:
            throw JSONError(.invalidJSON, "unexpected byte 0x\(String(byte, radix: 16)) at offset \(index)")
        }
    }

    /// RFC 8259 §4: object = begin-object [ member *( value-separator member ) ] end-object
    private mutating func parseObject() throws(JSONError) -> JSONValue {
        try enterContainer()
        index += 1
        var members: [JSONMember] = []
        // Filled only once an object outgrows `pairwiseNameLimit` (see `isRepeated`).
        var names = Set<String>()
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else {
                throw JSONError(.invalidJSON, "expected a member name at offset \(index)")
            }
            let name = try parseString()
            // RFC 7493 §2.3: objects must not have members with duplicate names.
            guard !Self.isRepeated(name, in: members, names: &names) else {
                throw JSONError(.duplicateMemberName, "duplicate member name \"\(name)\"")
            }
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            skipWhitespace()
            let value = try parseValue()
            members.append(JSONMember(key: name, value: value))
            skipWhitespace()
            if peek() == UInt8(ascii: ",") {
                index += 1
                continue
            }
            try expect(UInt8(ascii: "}"))
            depth -= 1
            return .object(members)
        }
    }

    /// Objects up to this many members are checked for a repeated name by comparing names pairwise.
    static let pairwiseNameLimit = 16

    /// Whether `name` is already the name of one of `members` (the object's members so far, RFC 7493 §2.3). Small
    /// objects (every WebAuthn clientDataJSON, every token request) compare pairwise, which costs less than hashing
    /// into a fresh `Set`; from `pairwiseNameLimit` members on, `names` holds every name so far and the test is a
    /// hash lookup, so a hostile object with thousands of members stays linear.
    private static func isRepeated(_ name: String, in members: [JSONMember], names: inout Set<String>) -> Bool {
        if members.count < pairwiseNameLimit { return members.contains { $0.key == name } }
        if names.isEmpty { names = Set(members.lazy.map(\.key)) }
        return !names.insert(name).inserted
    }

    /// RFC 8259 §5: array = begin-array [ value *( value-separator value ) ] end-array
    private mutating func parseArray() throws(JSONError) -> JSONValue {
        try enterContainer()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            if peek() == UInt8(ascii: ",") {
                index += 1
                continue
            }
            try expect(UInt8(ascii: "]"))
            depth -= 1
            return .array(elements)
        }
    }

    /// RFC 8259 §6: number = [ minus ] int [ frac ] [ exp ]; int = zero / ( digit1-9 *DIGIT )
    private mutating func parseNumber() throws(JSONError) -> String {
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        if peek() == UInt8(ascii: "0") {
            index += 1
        } else {
            guard skipDigits() > 0 else {
                throw JSONError(.invalidJSON, "a number needs digits at offset \(index)")
            }
        }
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard skipDigits() > 0 else {
                throw JSONError(.invalidJSON, "a fraction needs digits at offset \(index)")
            }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard skipDigits() > 0 else {
                throw JSONError(.invalidJSON, "an exponent needs digits at offset \(index)")
            }
        }
        // The grammar above admits ASCII only, so this decoding cannot repair anything.
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// RFC 8259 §7: string = quotation-mark *char quotation-mark, with the escapes of §7.
    private mutating func parseString() throws(JSONError) -> String {
        index += 1  // the opening quotation mark
        let start = index
        // Fast path: no escapes — validate the run as UTF-8 in one step.
        var highBits: UInt8 = 0  // OR of the run's bytes: below 0x80 when the run is ASCII
        while let byte = peek(), byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
            // RFC 8259 §7: control characters U+0000…U+001F must be escaped.
            guard byte >= 0x20 else {
                throw JSONError(.invalidJSON, "unescaped control character at offset \(index)")
            }
            highBits |= byte
            index += 1
        }
        guard let stop = peek() else {
            throw JSONError(.invalidJSON, "unterminated string starting at offset \(start)")
        }
        if stop == UInt8(ascii: "\"") {
            index += 1
            // ASCII is UTF-8 as it stands: nothing to validate, and `String(decoding:)` has nothing to repair.
            if highBits < 0x80 { return String(decoding: bytes[start..<(index - 1)], as: UTF8.self) }
            return try Self.validatedUTF8(bytes[start..<(index - 1)], at: start)
        }
        // Slow path: decode escapes into a scalar buffer.
        var scalars: [UInt8] = Array(bytes[start..<index])
        while true {
            guard let byte = peek() else {
                throw JSONError(.invalidJSON, "unterminated string starting at offset \(start)")
            }
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return try Self.validatedUTF8(scalars[...], at: start)
            case UInt8(ascii: "\\"):
                try appendEscape(to: &scalars)
            case 0x00..<0x20:
                throw JSONError(.invalidJSON, "unescaped control character at offset \(index - 1)")
            default:
                scalars.append(byte)
            }
        }
    }

    /// One escape after a backslash (RFC 8259 §7), appended as UTF-8.
    private mutating func appendEscape(to output: inout [UInt8]) throws(JSONError) {
        guard let escape = peek() else {
            throw JSONError(.invalidJSON, "unterminated escape at offset \(index)")
        }
        index += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(escape)
        case UInt8(ascii: "b"): output.append(0x08)
        case UInt8(ascii: "f"): output.append(0x0C)
        case UInt8(ascii: "n"): output.append(0x0A)
        case UInt8(ascii: "r"): output.append(0x0D)
        case UInt8(ascii: "t"): output.append(0x09)
        case UInt8(ascii: "u"):
            let first = try parseHexQuad()
            var scalarValue = UInt32(first)
            if (0xD800...0xDBFF).contains(first) {
                // RFC 8259 §7: a character outside the BMP is a surrogate pair \uD8xx\uDCxx.
                guard peek() == UInt8(ascii: "\\"), peek(at: 1) == UInt8(ascii: "u") else {
                    throw JSONError(.invalidJSON, "lone high surrogate at offset \(index)")
                }
                index += 2
                let second = try parseHexQuad()
                guard (0xDC00...0xDFFF).contains(second) else {
                    throw JSONError(.invalidJSON, "high surrogate without a low surrogate at offset \(index)")
                }
                scalarValue = 0x10000 + ((UInt32(first) - 0xD800) << 10) + (UInt32(second) - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(first) {
                // RFC 7493 §2.1: lone surrogates are not allowed.
                throw JSONError(.invalidJSON, "lone low surrogate at offset \(index)")
            }
            guard let scalar = Unicode.Scalar(scalarValue) else {
                throw JSONError(.invalidJSON, "invalid code point at offset \(index)")
            }
            output.append(contentsOf: String(scalar).utf8)
        default:
            throw JSONError(.invalidJSON, "invalid escape at offset \(index - 1)")
        }
    }

    private mutating func parseHexQuad() throws(JSONError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard let byte = peek(), let digit = Self.hexValue(byte) else {
                throw JSONError(.invalidJSON, "invalid \\u escape at offset \(index)")
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    // MARK: helpers

    private static func validatedUTF8(_ slice: ArraySlice<UInt8>, at offset: Int) throws(JSONError) -> String {
        // RFC 8259 §8.1 / RFC 7493 §2.1: text must be UTF-8; invalid sequences are refused, not repaired.
        guard let string = String(validating: slice, as: UTF8.self) else {
            throw JSONError(.invalidJSON, "invalid UTF-8 in the string starting at offset \(offset)")
        }
        return string
    }

    private mutating func enterContainer() throws(JSONError) {
        depth += 1
        guard depth <= maximumDepth else {
            throw JSONError(.nestingTooDeep, "nesting deeper than \(maximumDepth)")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONError) {
        let count = literal.utf8CodeUnitCount
        guard bytes.endIndex - index >= count,
            literal.withUTF8Buffer({ bytes[index..<(index + count)].elementsEqual($0) })
        else {
            throw JSONError(.invalidJSON, "invalid literal at offset \(index)")
        }
        index += count
    }

    private mutating func expect(_ byte: UInt8) throws(JSONError) {
        guard peek() == byte else {
            throw JSONError(.invalidJSON, "expected '\(Character(Unicode.Scalar(byte)))' at offset \(index)")
        }
        index += 1
    }

    /// Skips digits and returns how many there were.
    private mutating func skipDigits() -> Int {
        let start = index
        while let byte = peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
            index += 1
        }
        return index - start
    }

    /// RFC 8259 §2: ws = *( %x20 / %x09 / %x0A / %x0D )
    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
            index += 1
        }
    }

    /// The value of a hexadecimal digit, or `nil`.
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        default: return nil
        }
    }

    @inline(__always)
    private func peek(at offset: Int = 0) -> UInt8? {
        let position = index + offset
        return position < bytes.endIndex ? bytes[position] : nil
    }
}
