/// Base64url without padding (RFC 4648 §5), the encoding WebAuthn JSON, JOSE and our wire formats use.
///
/// Both directions are plain byte loops over lookup tables: every WebAuthn request decodes four or five
/// fields, and going through Foundation (`Data(base64Encoded:)` plus alphabet substitution on `String`)
/// cost more than the rest of a `none` registration.
public enum Base64URL {
    /// RFC 4648 §5 Table 2: the URL and filename safe alphabet.
    private static let alphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Marks a byte outside the alphabet in `sextets`.
    private static let invalid: UInt8 = 0xFF

    /// The inverse of `alphabet`: the 6-bit value of each byte, `invalid` for bytes outside it
    /// (including the standard alphabet's `+` and `/`, and `=`).
    private static let sextets: [UInt8] = {
        var table = [UInt8](repeating: invalid, count: 256)
        for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
        return table
    }()

    /// Encodes bytes as base64url with no `=` padding.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        Array(bytes).withUnsafeBufferPointer { encode(buffer: $0) }
    }

    /// Encodes bytes as base64url with no `=` padding; the `[UInt8]` case, without generic dispatch.
    public static func encode(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { encode(buffer: $0) }
    }

    /// Encodes the bytes of `input`; see `encode(_:)`.
    private static func encode(buffer input: UnsafeBufferPointer<UInt8>) -> String {
        let length = (input.count * 4 + 2) / 3  // RFC 4648 §5 without padding: ceil(8n / 6) characters
        guard length > 0 else { return "" }
        return String(unsafeUninitializedCapacity: length) { output in
            alphabet.withUnsafeBufferPointer { table in
                var out = 0
                var index = 0
                // Whole 3-byte groups become 4 characters (RFC 4648 §4).
                while index + 3 <= input.count {
                    let group = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
                    output[out] = table[Int(group >> 18 & 0x3F)]
                    output[out + 1] = table[Int(group >> 12 & 0x3F)]
                    output[out + 2] = table[Int(group >> 6 & 0x3F)]
                    output[out + 3] = table[Int(group & 0x3F)]
                    out += 4
                    index += 3
                }
                // A final 1 or 2 bytes become 2 or 3 characters, the unused low bits zero.
                let left = input.count - index
                if left > 0 {
                    var group = UInt32(input[index]) << 16
                    if left == 2 { group |= UInt32(input[index + 1]) << 8 }
                    output[out] = table[Int(group >> 18 & 0x3F)]
                    output[out + 1] = table[Int(group >> 12 & 0x3F)]
                    out += 2
                    if left == 2 {
                        output[out] = table[Int(group >> 6 & 0x3F)]
                        out += 1
                    }
                }
                return out
            }
        }
    }

    /// Decodes base64url text. Padding is accepted but not required (WebAuthn L3 §5.1 JSON forms
    /// are unpadded; some clients pad). Standard-alphabet `+` and `/` are refused: they signal a
    /// client that used the wrong encoding. Returns `nil` for anything that is not base64url.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        if let decoded = text.utf8.withContiguousStorageIfAvailable({ decode(utf8: $0) }) { return decoded }
        return Array(text.utf8).withUnsafeBufferPointer { decode(utf8: $0) }
    }

    /// Decodes base64url text; see `decode(_:)`. The `String` case, without generic dispatch.
    public static func decode(_ text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { decode(utf8: $0) }
    }

    /// Decodes base64url from its UTF-8 (ASCII) bytes; see `decode(_:)`.
    private static func decode(utf8 text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        // Trailing `=` padding is dropped (any amount); an `=` anywhere else is outside the alphabet.
        var end = text.count
        while end > 0, text[end - 1] == UInt8(ascii: "=") { end -= 1 }
        // A single leftover character cannot encode a whole byte (RFC 4648 §4).
        let remainder = end % 4
        guard remainder != 1 else { return nil }
        let count = end / 4 * 3 + (remainder == 0 ? 0 : remainder - 1)
        var valid = true
        let bytes = sextets.withUnsafeBufferPointer { table in
            [UInt8](unsafeUninitializedCapacity: count) { output, initialized in
                var out = 0
                var index = 0
                var bad: UInt8 = 0  // OR of every sextet: the `invalid` marker's high bits survive
                while index + 4 <= end {
                    let a = table[Int(text[index])]
                    let b = table[Int(text[index + 1])]
                    let c = table[Int(text[index + 2])]
                    let d = table[Int(text[index + 3])]
                    bad |= a | b | c | d
                    let group = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                    output[out] = UInt8(truncatingIfNeeded: group >> 16)
                    output[out + 1] = UInt8(truncatingIfNeeded: group >> 8)
                    output[out + 2] = UInt8(truncatingIfNeeded: group)
                    out += 3
                    index += 4
                }
                // 2 or 3 final characters carry 1 or 2 bytes. Like the decoder this replaced, the unused
                // low bits of the last character are not required to be zero (RFC 4648 §3.5 allows either).
                if remainder >= 2 {
                    let a = table[Int(text[index])]
                    let b = table[Int(text[index + 1])]
                    let c = remainder == 3 ? table[Int(text[index + 2])] : 0
                    bad |= a | b | c
                    let group = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6
                    output[out] = UInt8(truncatingIfNeeded: group >> 16)
                    out += 1
                    if remainder == 3 {
                        output[out] = UInt8(truncatingIfNeeded: group >> 8)
                        out += 1
                    }
                }
                // Sextets are below 64, so bit 6 or 7 set means some byte was outside the alphabet.
                valid = bad & 0xC0 == 0
                initialized = out
            }
        }
        return valid ? bytes : nil
    }
}
