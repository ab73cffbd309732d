/// Base64url without padding (RFC 4648 §5), the encoding WebAuthn JSON, JOSE and our wire formats use.
///
/// Both directions are plain byte loops over lookup tables: every WebAuthn request decodes four or five
/// fields, and going through Foundation (`Data(base64Encoded:)` plus alphabet substitution on `String`)
/// cost more than the rest of a `none` registration.
public enum Base64URL {
    /// RFC 4648 §5 Table 2: the URL and filename safe alphabet.
    private static let alphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Decoding tables, one per position in a 4-character group: each byte's sextet already shifted to its
    /// place in the 24-bit group, and bit 24 set for a byte outside `alphabet` (including the standard
    /// alphabet's `+` and `/`, and `=`). Position p's table is entries 256p ..< 256(p + 1).
    private static let groupBits: [UInt32] = {
        var table = [UInt32](repeating: invalid, count: 4 * 256)
        for (value, byte) in alphabet.enumerated() {
            for position in 0..<4 { table[position * 256 + Int(byte)] = UInt32(value) << (18 - 6 * position) }
        }
        return table
    }()

    /// Marks a byte outside the alphabet in `groupBits`: above the 24 bits of any group.
    private static let invalid: UInt32 = 1 << 24

    /// What a decoder makes of the last character's unused bits (the 2 or 4 bits below the final byte).
    public enum UnusedBits: Sendable {
        /// They must be zero (RFC 4648 §3.5's canonical encoding): one spelling per byte string. For what the
        /// server minted or compares as text: challenges, tokens, handles, JWS segments.
        case mustBeZero
        /// They are ignored, as RFC 4648 §3.5 lets a decoder do: for binary members that a client or
        /// authenticator encodes and whose bytes, not spelling, are verified (WebAuthn responses).
        case ignored
    }

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

    /// Decodes base64url text in its one spelling, the text `encode` writes: RFC 4648 §5 without padding, as
    /// WebAuthn L3 §3 ("base64url encoding ... with all trailing '=' characters omitted") and RFC 7515 §2 define
    /// it, with the last character's unused bits zero (RFC 4648 §3.5 "canonical encoding"). `=`, the standard
    /// alphabet's `+` and `/`, whitespace, a length no encoding has and non-zero unused bits are refused, so the
    /// same bytes never arrive in two spellings: JOSE signs the text, WebAuthn compares the challenge as text
    /// (L3 §7.1 step 8, §7.2 step 12). Returns `nil` for anything else. With `unusedBits: .ignored`, the last
    /// character's unused bits may be anything (every other rule holds): for the binary members of a WebAuthn
    /// response, whose bytes and not spelling are verified.
    public static func decode(_ text: some StringProtocol, unusedBits: UnusedBits = .mustBeZero) -> [UInt8]? {
        if let decoded = text.utf8.withContiguousStorageIfAvailable({ decode(utf8: $0, unusedBits) }) {
            return decoded
        }
        return Array(text.utf8).withUnsafeBufferPointer { decode(utf8: $0, unusedBits) }
    }

    /// Decodes base64url text; see `decode(_:unusedBits:)`. The `String` case, without generic dispatch.
    public static func decode(_ text: String, unusedBits: UnusedBits = .mustBeZero) -> [UInt8]? {
        withUTF8(of: text) { decode(utf8: $0, unusedBits) }
    }

    /// Decodes base64url given as its ASCII bytes (text already known to be ASCII, such as a JSON string's
    /// bytes); see `decode(_:)`.
    public static func decode(ascii text: ArraySlice<UInt8>) -> [UInt8]? {
        text.withUnsafeBufferPointer { decode(utf8: $0, .mustBeZero) }
    }

    /// Decodes base64url from its UTF-8 (ASCII) bytes; see `decode(_:unusedBits:)`.
    private static func decode(utf8 text: UnsafeBufferPointer<UInt8>, _ unusedBits: UnusedBits) -> [UInt8]? {
        guard let count = decodedCount(utf8: text) else { return nil }
        var valid = false
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { output, initialized in
            valid = decode(utf8: text, into: output, unusedBits)
            initialized = count
        }
        return valid ? bytes : nil
    }

    /// Runs `body` on the bytes ASCII `text` decodes to (`nil` when it is not base64url, as `decode` judges), decoded
    /// on the stack: nothing is allocated for texts up to a few kilobytes.
    public static func withDecoded<Answer>(
        ascii text: ArraySlice<UInt8>, _ body: (UnsafeBufferPointer<UInt8>?) -> Answer
    ) -> Answer {
        text.withUnsafeBufferPointer { withDecoded(utf8: $0, .mustBeZero, body) }
    }

    /// Whether `text` is base64url (as `decode` accepts it) for exactly `bytes`. Decodes on the stack: nothing is
    /// allocated for texts up to a few kilobytes.
    public static func decodes(_ text: String, to bytes: [UInt8], unusedBits: UnusedBits = .mustBeZero) -> Bool {
        withUTF8(of: text) { utf8 in withDecoded(utf8: utf8, unusedBits) { $0?.elementsEqual(bytes) ?? false } }
    }

    /// `body` on `text`'s UTF-8: a native string's is read where it lies (`withUTF8` would need a mutable copy,
    /// a retain); any other string's is made contiguous first.
    private static func withUTF8<Answer>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Answer) -> Answer {
        if let answer = text.utf8.withContiguousStorageIfAvailable(body) { return answer }
        var text = text
        return text.withUTF8(body)
    }

    /// The stack decoding behind `withDecoded(ascii:_:)` and `decodes(_:to:)`.
    private static func withDecoded<Answer>(
        utf8 text: UnsafeBufferPointer<UInt8>, _ unusedBits: UnusedBits,
        _ body: (UnsafeBufferPointer<UInt8>?) -> Answer
    ) -> Answer {
        guard let count = decodedCount(utf8: text) else { return body(nil) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(count, 1)) { output in
            guard decode(utf8: text, into: output, unusedBits) else { return body(nil) }
            return body(UnsafeBufferPointer(rebasing: output[0..<count]))
        }
    }

    /// How many bytes `text` decodes to, or `nil` when its length cannot be base64url: a single leftover
    /// character cannot encode a whole byte (RFC 4648 §4). `=` is not counted off: it is outside the alphabet
    /// (WebAuthn L3 §3 and RFC 7515 §2 omit padding), so `decode(utf8:into:_:)` refuses it wherever it stands.
    private static func decodedCount(utf8 text: UnsafeBufferPointer<UInt8>) -> Int? {
        let remainder = text.count % 4
        guard remainder != 1 else { return nil }
        return text.count / 4 * 3 + (remainder == 0 ? 0 : remainder - 1)
    }

    /// Decodes `text` into the first `decodedCount(utf8: text)` bytes of `output`; `false` when a character is
    /// outside the alphabet or, with `.mustBeZero`, the last character's unused bits are not zero (`output` then
    /// holds garbage). This is the one base64url rule of passkeyd: every decoding entry point comes here.
    private static func decode(
        utf8 text: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>,
        _ unusedBits: UnusedBits
    ) -> Bool {
        let end = text.count
        let remainder = end % 4
        var bad: UInt32 = 0  // OR of every group: the `invalid` bit survives
        groupBits.withUnsafeBufferPointer { table in
            var out = 0
            var index = 0
            while index + 4 <= end {
                let group =
                    table[Int(text[index])] | table[256 + Int(text[index + 1])]
                    | table[512 + Int(text[index + 2])] | table[768 + Int(text[index + 3])]
                bad |= group
                output[out] = UInt8(truncatingIfNeeded: group >> 16)
                output[out + 1] = UInt8(truncatingIfNeeded: group >> 8)
                output[out + 2] = UInt8(truncatingIfNeeded: group)
                out += 3
                index += 4
            }
            // 2 or 3 final characters carry 1 or 2 bytes; the bits below them (4 or 2) are unused.
            if remainder >= 2 {
                var group = table[Int(text[index])] | table[256 + Int(text[index + 1])]
                if remainder == 3 { group |= table[512 + Int(text[index + 2])] }
                bad |= group
                // RFC 4648 §3.5: in the canonical encoding the unused bits are zero; one mask on the group.
                if unusedBits == .mustBeZero, group & (remainder == 2 ? 0xFFFF : 0xFF) != 0 { bad |= invalid }
                output[out] = UInt8(truncatingIfNeeded: group >> 16)
                out += 1
                if remainder == 3 {
                    output[out] = UInt8(truncatingIfNeeded: group >> 8)
                    out += 1
                }
            }
        }
        return bad & invalid == 0
    }
}
