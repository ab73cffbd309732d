import Foundation
import Testing

@testable import Configuration
@testable import Service

/// The repository root, found from this file's path (Tests/ServerTests/Configuration/…).
private let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

@Suite("README.md's configuration table")
struct ReadmeConfigurationTableTests {
    @Test("is the table the settings declarations render, row for row (so make test fails when they differ)")
    func matchesTheDeclarations() throws {
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let rendered = Settings.markdownTable
        let start = try #require(lines.firstIndex(of: rendered[0]), "README.md has no \"\(rendered[0])\" table")
        let end = lines[start...].firstIndex { !$0.hasPrefix("|") } ?? lines.endIndex
        let documented = Array(lines[start..<end])
        guard documented != rendered else { return }
        // The table to paste, for whoever changed a declaration (or the README by hand).
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("passkeyd-configuration-table.md")
        try (rendered.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        let difference =
            zip(documented, rendered).first { $0 != $1 }.map { "README: \($0)\ntable:  \($1)" }
            ?? "README has \(documented.count) lines, the declarations render \(rendered.count)"
        Issue.record(
            """
            README.md's configuration table differs from the settings declarations \
            (Sources/Configuration/Settings); the rendered table is in \(file.path), to replace README's.
            \(difference)
            """)
    }
}
