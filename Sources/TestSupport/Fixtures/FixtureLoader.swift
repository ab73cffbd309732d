import Foundation
import WebAuthn

/// Finds and reads files under the repository's `Fixtures/` folder, located from this source file's
/// path (`Sources/TestSupport/Fixtures/FixtureLoader.swift` → four levels up is the repository root),
/// so tests and `passkeyd replay` read the same files.
public enum FixtureLoader {
    /// The repository's `Fixtures/` directory.
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Fixtures/
        .deletingLastPathComponent()  // TestSupport/
        .deletingLastPathComponent()  // Sources/
        .deletingLastPathComponent()  // repository root
        .appendingPathComponent("Fixtures", isDirectory: true)

    /// The URL of `relativePath` below `Fixtures/`.
    public static func url(_ relativePath: String) -> URL {
        root.appendingPathComponent(relativePath)
    }

    /// The bytes of `relativePath` below `Fixtures/`.
    public static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: url(relativePath))
    }

    /// Every `.json` file below `Fixtures/ceremonies/`, as paths relative to `Fixtures/`, sorted.
    public static func ceremonyPaths() -> [String] {
        let base = url("ceremonies")
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [] }
        var paths: [String] = []
        for case let file as URL in walker where file.pathExtension == "json" {
            let relative = file.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1)
            paths.append(String(relative))
        }
        return paths.sorted()
    }

    /// Decodes the recorded ceremony at `relativePath` below `Fixtures/`.
    public static func ceremony(_ relativePath: String) throws -> RecordedCeremony {
        try JSONDecoder().decode(RecordedCeremony.self, from: data(relativePath))
    }
}
