/// Base64url without padding (RFC 4648 §5), the encoding WebAuthn JSON, JOSE and our wire formats use.
///
/// Both directions are plain byte loops over lookup tables: every WebAuthn request decodes four or five
/// fields, and going through Foundation (`Data(base64Encoded:)` plus alphabet substitution on `String`)
/// cost more than the rest of a `none` registration.
public enum Base64URL {
    /// RFC 4648 §5 Table 2: the URL and filename safe alphabet.
    private static let alphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The decoding table: each byte's sextet, or `invalid` for a byte outside `alphabet` (including the
    /// standard alphabet's `+` and `/`, and `=`).
    private static let sextets: [UInt8] = {
        var table = [UInt8](repeating: invalid, count: 256)
        for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
        return table
    }()

    /// Marks a byte outside the alphabet in `sextets`: above the 6 bits of any sextet.
    private static let invalid: UInt8 = 0x40

    /// What a decoder makes of the last character's unused bits (the 2 or 4 bits below the final byte).
    public enum UnusedBits: Sendable {
        /// They must be zero (RFC 4648 §3.5's canonical encoding): one spelling per byte string. For what the
        /// server minted or compares as text: challenges, tokens, handles, JWS segments.
        case mustBeZero
        /// They are ignored, as RFC 4648 §3.5 lets a decoder do: for binary members that a client or
        /// authenticator encodes and whose bytes, not spelling, are verified (WebAuthn responses).
        case ignored
    }

    /// Whether every character of `text` is in the alphabet (identifiers minted as base64url text, checked before
    /// any lookup).
    public static func isAlphabet(_ text: String) -> Bool {
        text.utf8.allSatisfy { sextets[Int($0)] != invalid }
    }

    /// Encodes bytes as base64url with no `=` padding.
    @inlinable
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        bytes.withContiguousBytes { encode(buffer: $0) }
    }

    /// Encodes the bytes of `input`; see `encode(_:)`.
    @usableFromInline
    static func encode(buffer input: UnsafeRawBufferPointer) -> String {
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
    @inlinable
    public static func decode(_ text: some StringProtocol, unusedBits: UnusedBits = .mustBeZero) -> [UInt8]? {
        text.utf8.withContiguousBytes { decode(utf8: $0, unusedBits) }
    }

    /// Decodes base64url from its UTF-8 (ASCII) bytes; see `decode(_:unusedBits:)`.
    @usableFromInline
    static func decode(utf8 text: UnsafeRawBufferPointer, _ unusedBits: UnusedBits) -> [UInt8]? {
        guard let count = decodedCount(utf8: text) else { return nil }
        var valid = false
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { output, initialized in
            valid = decode(utf8: text, into: output, unusedBits)
            initialized = count
        }
        return valid ? bytes : nil
    }

    /// Whether `text` is base64url (as `decode` accepts it) for exactly `bytes`, decoded on the stack.
    @inlinable
    public static func decodes(
        _ text: some StringProtocol, to bytes: some Collection<UInt8>, unusedBits: UnusedBits = .mustBeZero
    ) -> Bool {
        text.utf8.withContiguousBytes { utf8 in bytes.withContiguousBytes { decodes(utf8: utf8, to: $0, unusedBits) } }
    }

    /// `decodes` on the text's UTF-8 and the bytes where they lie.
    @usableFromInline
    static func decodes(utf8 text: UnsafeRawBufferPointer, to bytes: UnsafeRawBufferPointer, _ unusedBits: UnusedBits)
        -> Bool
    {
        withDecoded(utf8: text, unusedBits) { $0?.elementsEqual(bytes) ?? false }
    }

    /// The stack decoding behind `decodes(_:to:)`.
    private static func withDecoded<Answer>(
        utf8 text: UnsafeRawBufferPointer, _ unusedBits: UnusedBits,
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
    private static func decodedCount(utf8 text: UnsafeRawBufferPointer) -> Int? {
        let remainder = text.count % 4
        guard remainder != 1 else { return nil }
        return text.count / 4 * 3 + (remainder == 0 ? 0 : remainder - 1)
    }

    /// Decodes `text` into the first `decodedCount(utf8: text)` bytes of `output`; `false` when a character is
    /// outside the alphabet or, with `.mustBeZero`, the last character's unused bits are not zero (`output` then
    /// holds garbage). This is the one base64url rule of passkeyd: every decoding entry point comes here.
    private static func decode(
        utf8 text: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<UInt8>,
        _ unusedBits: UnusedBits
    ) -> Bool {
        let end = text.count
        let remainder = end % 4
        var bad: UInt8 = 0  // OR of every sextet: the `invalid` bit survives
        sextets.withUnsafeBufferPointer { table in
            var out = 0
            var index = 0
            while index + 4 <= end {
                let a = table[Int(text[index])], b = table[Int(text[index + 1])]
                let c = table[Int(text[index + 2])], d = table[Int(text[index + 3])]
                bad |= a | b | c | d
                output[out] = a << 2 | b >> 4
                output[out + 1] = b << 4 | c >> 2
                output[out + 2] = c << 6 | d
                out += 3
                index += 4
            }
            // 2 or 3 final characters carry 1 or 2 bytes; the bits below them (4 or 2) are unused.
            if remainder >= 2 {
                let a = table[Int(text[index])], b = table[Int(text[index + 1])]
                let c = remainder == 3 ? table[Int(text[index + 2])] : 0
                bad |= a | b | c
                output[out] = a << 2 | b >> 4
                if remainder == 3 { output[out + 1] = b << 4 | c >> 2 }
                // RFC 4648 §3.5: in the canonical encoding the unused bits are zero.
                let unused = remainder == 2 ? b & 0x0F : c & 0x03
                if unusedBits == .mustBeZero, unused != 0 { bad |= invalid }
            }
        }
        return bad & invalid == 0
    }
}
