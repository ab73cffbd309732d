/// Builds DER (X.690) for test material the `openssl` CLI cannot express, such as an Android KeyDescription:
/// tag, definite length, contents. Test use only; production code reads DER through `Crypto.DERNode`.
public enum DERBuilder {
    /// One element: `identifier`, the X.690 §8.1.3 definite length, `contents`.
    public static func element(_ identifier: [UInt8], _ contents: [UInt8]) -> [UInt8] {
        var length: [UInt8] = []
        if contents.count < 0x80 {
            length = [UInt8(contents.count)]
        } else {
            var count = contents.count
            var bytes: [UInt8] = []
            while count > 0 {
                bytes.insert(UInt8(count & 0xFF), at: 0)
                count >>= 8
            }
            length = [0x80 | UInt8(bytes.count)] + bytes
        }
        return identifier + length + contents
    }

    /// SEQUENCE of `items`.
    public static func sequence(_ items: [[UInt8]]) -> [UInt8] { element([0x30], items.flatMap { $0 }) }
    /// SET OF `items` (given in DER order).
    public static func set(_ items: [[UInt8]]) -> [UInt8] { element([0x31], items.flatMap { $0 }) }
    /// A non-negative INTEGER.
    public static func integer(_ value: Int) -> [UInt8] { element([0x02], unsigned(value)) }
    /// An ENUMERATED.
    public static func enumerated(_ value: Int) -> [UInt8] { element([0x0A], unsigned(value)) }
    /// An OCTET STRING.
    public static func octetString(_ bytes: [UInt8]) -> [UInt8] { element([0x04], bytes) }
    /// A BOOLEAN (DER TRUE is 0xFF).
    public static func boolean(_ value: Bool) -> [UInt8] { element([0x01], [value ? 0xFF : 0x00]) }
    /// NULL.
    public static func null() -> [UInt8] { [0x05, 0x00] }

    /// `[number] EXPLICIT` (context-specific, constructed) around `inner`, with the high-tag-number form
    /// (X.690 §8.1.2.4) for numbers of 31 and more.
    public static func explicit(_ number: Int, _ inner: [UInt8]) -> [UInt8] {
        guard number >= 31 else { return element([0xA0 | UInt8(number)], inner) }
        var groups: [UInt8] = [UInt8(number & 0x7F)]
        var rest = number >> 7
        while rest > 0 {
            groups.insert(0x80 | UInt8(rest & 0x7F), at: 0)
            rest >>= 7
        }
        return element([0xBF] + groups, inner)
    }

    /// Minimal two's-complement contents of a non-negative integer.
    private static func unsigned(_ value: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var rest = value
        repeat {
            bytes.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        } while rest > 0
        if let first = bytes.first, first & 0x80 != 0 { bytes.insert(0, at: 0) }
        return bytes
    }
}
