/// A quick, strict reader for the shape clientDataJSON has in practice (WebAuthn L3 §5.8.1.2, the
/// limited serialization browsers use): one JSON object (RFC 8259 §4) of ASCII members whose values are
/// strings without escapes, `true`, `false` or `null`, each member name once.
///
/// It answers `nil` for anything outside that shape — escapes, numbers, nested values, non-ASCII bytes,
/// duplicate names, malformed JSON alike — and the caller then parses with `JSONSerialization`. So what
/// it accepts is a subset of what the general parser accepts, read to the same values, and every error
/// still comes from the general path.
enum ClientDataJSONScanner {
    /// A member value of the accepted shape.
    enum Value: Equatable {
        /// Where a string's bytes lie in the input, without the quotes: printable ASCII and no escapes, so
        /// those bytes are the string's UTF-8.
        case string(Range<Int>)
        case bool(Bool)
        case null
    }

    /// One member: where its name lies in the input (a string, as in `Value.string`) and its value.
    /// Positions rather than slices, so that scanning retains nothing.
    struct Member {
        let name: Range<Int>
        let value: Value
    }

    /// Reads the members of `bytes` in order into `members` (empty on entry); `false` when `bytes` is not of the
    /// accepted shape (`members` then holds what was read before the scan gave up).
    static func scan(_ bytes: [UInt8], into members: inout Members) -> Bool {
        bytes.withUnsafeBufferPointer { scan($0, into: &members) }
    }

    /// Up to `capacity` members, held inline: no allocation, and none of the runtime's generic-array machinery
    /// on the request path. An object with more members takes the general path.
    struct Members {
        /// Browsers send 3 to 5 members; Android clients a few more.
        static let capacity = 12
        private var storage = InlineArray<12, Member>(repeating: Member(name: 0..<0, value: .null))
        /// How many members were read.
        private(set) var count = 0

        /// The member at `index` (in `0..<count`), in input order.
        subscript(index: Int) -> Member { storage[index] }

        /// Adds `member`; `false` when full.
        mutating func append(_ member: Member) -> Bool {
            guard count < Self.capacity else { return false }
            storage[count] = member
            count += 1
            return true
        }

        /// Whether a member is named like `name` (both ranges of `bytes`).
        func contains(name: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            for index in 0..<count where bytes[storage[index].name].elementsEqual(bytes[name]) { return true }
            return false
        }
    }

    /// `scan(_:into:)` over the input's storage.
    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>, into members: inout Members) -> Bool {
        var reader = Reader(bytes: bytes)
        reader.skipWhitespace()
        guard reader.consume(UInt8(ascii: "{")) else { return false }
        reader.skipWhitespace()
        if !reader.consume(UInt8(ascii: "}")) {
            while true {
                guard let name = reader.string() else { return false }
                // RFC 8259 §4 leaves duplicate names to the parser; the general path decides those.
                guard !members.contains(name: name, in: bytes) else { return false }
                reader.skipWhitespace()
                guard reader.consume(UInt8(ascii: ":")) else { return false }
                reader.skipWhitespace()
                guard let value = reader.value() else { return false }
                guard members.append(Member(name: name, value: value)) else { return false }
                reader.skipWhitespace()
                if reader.consume(UInt8(ascii: ",")) {
                    reader.skipWhitespace()
                    continue
                }
                guard reader.consume(UInt8(ascii: "}")) else { return false }
                break
            }
        }
        reader.skipWhitespace()
        return reader.atEnd
    }

    /// A cursor over the bytes; every read checks the bounds.
    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var offset = 0

        var atEnd: Bool { offset == bytes.count }

        /// RFC 8259 §2: insignificant whitespace is space, tab, line feed and carriage return.
        mutating func skipWhitespace() {
            while offset < bytes.count {
                switch bytes[offset] {
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): offset += 1
                default: return
                }
            }
        }

        /// Consumes `byte` if it is next.
        mutating func consume(_ byte: UInt8) -> Bool {
            guard offset < bytes.count, bytes[offset] == byte else { return false }
            offset += 1
            return true
        }

        /// Consumes `literal` if it is next.
        mutating func consume(_ literal: StaticString) -> Bool {
            let count = literal.utf8CodeUnitCount
            guard bytes.count - offset >= count else { return false }
            let matches = literal.withUTF8Buffer { expected in
                bytes[offset..<(offset + count)].elementsEqual(expected)
            }
            if matches { offset += count }
            return matches
        }

        /// A string without escapes (RFC 8259 §7: printable ASCII other than `"` and `\`), where its bytes
        /// lie without the quotes; `nil` for anything else, including control characters JSON forbids.
        mutating func string() -> Range<Int>? {
            guard consume(UInt8(ascii: "\"")) else { return nil }
            let start = offset
            while offset < bytes.count {
                let byte = bytes[offset]
                if byte == UInt8(ascii: "\"") {
                    defer { offset += 1 }
                    return start..<offset
                }
                guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return nil }
                offset += 1
            }
            return nil
        }

        /// A value of the accepted shape.
        mutating func value() -> Value? {
            guard offset < bytes.count else { return nil }
            switch bytes[offset] {
            case UInt8(ascii: "\""):
                guard let text = string() else { return nil }
                return .string(text)
            case UInt8(ascii: "t"):
                return consume("true") ? .bool(true) : nil
            case UInt8(ascii: "f"):
                return consume("false") ? .bool(false) : nil
            case UInt8(ascii: "n"):
                return consume("null") ? .null : nil
            default:
                return nil
            }
        }
    }
}
