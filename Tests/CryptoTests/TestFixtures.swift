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
