/// `application/x-www-form-urlencoded` (WHATWG URL §5; RFC 6749 appendix B): `name=value` pairs joined
/// by '&', '+' meaning space, other bytes percent-encoded as UTF-8.
public enum FormURLEncoding {
    /// Serialises pairs in order (WHATWG URL §5.2): `*-._` and alphanumerics stay, space becomes '+',
    /// every other byte of the UTF-8 form becomes `%XX`.
    public static func encode(_ pairs: [(String, String)]) -> String {
        var output: [UInt8] = []
        for (position, pair) in pairs.enumerated() {
            if position > 0 { output.append(UInt8(ascii: "&")) }
            appendEncoded(pair.0, to: &output)
            output.append(UInt8(ascii: "="))
            appendEncoded(pair.1, to: &output)
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Parses a form body strictly: every '%' must start a valid `%XX` escape and the decoded bytes
    /// must be UTF-8. Empty sequences (`a=1&&b=2`) are skipped; a name without '=' has the value "".
    static func decode(_ bytes: [UInt8]) throws(HTTPError) -> [(String, String)] {
        var pairs: [(String, String)] = []
        for sequence in bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let equals = sequence.firstIndex(of: UInt8(ascii: "=")) ?? sequence.endIndex
            let name = try strictlyDecoded(sequence[..<equals])
            let value = equals < sequence.endIndex ? try strictlyDecoded(sequence[(equals + 1)...]) : ""
            pairs.append((name, value))
        }
        return pairs
    }

    /// One `application/x-www-form-urlencoded` name or value, strictly (as `decode` reads a form's): the user-id and
    /// password of RFC 6749 §2.3.1's `Basic` credentials are encoded so.
    public static func decodeComponent(_ text: String) throws(HTTPError) -> String {
        try strictlyDecoded(ArraySlice(text.utf8))
    }

    /// Query-string decoding as libmicrohttpd does it: '+' as space (when asked), malformed escapes kept
    /// literally, invalid UTF-8 repaired with U+FFFD.
    static func lenientlyDecoded(_ bytes: ArraySlice<UInt8>, plusAsSpace: Bool) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), bytes.endIndex - index >= 3,
                let high = ASCII.hexValue(bytes[index + 1]), let low = ASCII.hexValue(bytes[index + 2])
            {
                output.append(high << 4 | low)
                index += 3
                continue
            }
            output.append(plusAsSpace && byte == UInt8(ascii: "+") ? 0x20 : byte)
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Query pairs decoded leniently, in order.
    static func lenientPairs(_ bytes: ArraySlice<UInt8>) -> [(String, String)] {
        bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true).map { sequence in
            let equals = sequence.firstIndex(of: UInt8(ascii: "=")) ?? sequence.endIndex
            let name = lenientlyDecoded(sequence[..<equals], plusAsSpace: true)
            let value =
                equals < sequence.endIndex ? lenientlyDecoded(sequence[(equals + 1)...], plusAsSpace: true) : ""
            return (name, value)
        }
    }

    // MARK: private

    /// RFC 3986 §2.1: producers should use upper-case hexadecimal digits in percent-encodings.
    private static let upperHexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    private static func strictlyDecoded(_ bytes: ArraySlice<UInt8>) throws(HTTPError) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "+"):
                output.append(0x20)
                index += 1
            case UInt8(ascii: "%"):
                guard bytes.endIndex - index >= 3,
                    let high = ASCII.hexValue(bytes[index + 1]), let low = ASCII.hexValue(bytes[index + 2])
                else {
                    throw HTTPError(.malformedForm, "invalid percent-escape at offset \(index - bytes.startIndex)")
                }
                output.append(high << 4 | low)
                index += 3
            default:
                output.append(byte)
                index += 1
            }
        }
        guard let string = String(validating: output, as: UTF8.self) else {
            throw HTTPError(.malformedForm, "a form name or value is not UTF-8 once decoded")
        }
        return string
    }

    private static func appendEncoded(_ string: String, to output: inout [UInt8]) {
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"):
                output.append(byte)
            case UInt8(ascii: " "):
                output.append(UInt8(ascii: "+"))
            default:
                output.append(UInt8(ascii: "%"))
                output.append(upperHexDigits[Int(byte >> 4)])
                output.append(upperHexDigits[Int(byte & 0x0F)])
            }
        }
    }
}
