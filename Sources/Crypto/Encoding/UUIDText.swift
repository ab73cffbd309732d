/// The text form of a UUID (RFC 9562 §4): 8-4-4-4-12 lower-case hex digits. Equal-length, so text order is byte
/// order. Used for AAGUIDs and for the server's UUIDv7 ids.
public enum UUIDText {
    /// The 16 bytes as 8-4-4-4-12 hex; any other length comes out as plain hex (no dashes).
    public static func format(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2 + 4)
        for (index, byte) in bytes.enumerated() {
            if bytes.count == 16 && (index == 4 || index == 6 || index == 8 || index == 10) {
                text.append(UInt8(ascii: "-"))
            }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
