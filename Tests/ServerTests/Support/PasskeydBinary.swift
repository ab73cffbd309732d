import Foundation
import Testing

/// The built `passkeyd` binary and the repository it was built from, for the tests that run it as a process of its
/// own (a umask, a second server on one data directory).
enum PasskeydBinary {
    /// The repository's root (this file is Tests/ServerTests/Support/PasskeydBinary.swift).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The binary beside the test bundle, or the debug build's; the test fails when neither is built.
    static func locate() throws -> URL {
        try #require(
            [
                URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
                    "passkeyd"),
                repository.appendingPathComponent(".build/debug/passkeyd"),
            ].first { FileManager.default.isExecutableFile(atPath: $0.path) }, "the passkeyd binary is not built")
    }
}
