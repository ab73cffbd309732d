import Crypto

/// Lowercase hex for test vectors, shared by every test target.
public enum Hex {
    /// Decodes hex (even length, no separators); traps on bad input, which is a bug in the test's fixed vector.
    public static func decode(_ text: String) -> [UInt8] {
        let digits = Array(text.utf8)
        precondition(digits.count % 2 == 0, "odd-length hex")
        return stride(from: 0, to: digits.count, by: 2).map { index in
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else {
                preconditionFailure("not hex: \(text)")
            }
            return byte
        }
    }

    /// Encodes bytes as lowercase hex: `Crypto.Hex`'s encoding (this type, which shadows it in the tests, adds the
    /// trapping decoder of fixed vectors).
    public static func encode(_ bytes: [UInt8]) -> String {
        Crypto.Hex.encode(bytes)
    }
}
