import Foundation

/// Locates and decodes fixture files shared with `passkeyd replay`.
enum TestFixtures {
    /// The repository root: three levels up from Tests/CryptoTests/TestFixtures.swift.
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The URL of `Fixtures/<relativePath>`.
    static func url(_ relativePath: String) -> URL {
        repositoryRoot.appendingPathComponent("Fixtures").appendingPathComponent(relativePath)
    }

    /// The bytes of `Fixtures/<relativePath>`.
    static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: url(relativePath))
    }

    /// The text of `Fixtures/<relativePath>`.
    static func text(_ relativePath: String) throws -> String {
        try String(decoding: data(relativePath), as: UTF8.self)
    }
}

/// Lowercase hex helpers for test vectors.
enum Hex {
    /// Decodes hex (even length, no separators); traps on bad input (tests only).
    static func decode(_ text: String) -> [UInt8] {
        let digits = Array(text.utf8)
        precondition(digits.count % 2 == 0, "odd-length hex")
        return stride(from: 0, to: digits.count, by: 2).map { index in
            UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16)!
        }
    }

    /// Encodes bytes as lowercase hex.
    static func encode(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}
