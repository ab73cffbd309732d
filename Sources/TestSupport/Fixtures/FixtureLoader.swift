import Foundation
import Replay

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
        try RecordedCeremony(json: Array(data(relativePath)))
    }

    /// The shared recorded ceremonies (`shared/fixtures` beside the repository, as STYLE.md's `../shared/fixtures`),
    /// found by walking up from the repository root so that a worktree nested deeper finds them too;
    /// `PASSKEYD_SHARED_FIXTURES` names another folder. `nil` when there is none.
    public static let sharedCeremonyRoot: URL? = {
        let files = FileManager.default
        if let named = ProcessInfo.processInfo.environment["PASSKEYD_SHARED_FIXTURES"] {
            return files.fileExists(atPath: named) ? URL(fileURLWithPath: named, isDirectory: true) : nil
        }
        var folder = root.deletingLastPathComponent()  // the repository root
        while folder.pathComponents.count > 1 {
            folder = folder.deletingLastPathComponent()
            let candidate = folder.appendingPathComponent("shared/fixtures", isDirectory: true)
            if files.fileExists(atPath: candidate.path) { return candidate }
        }
        return nil
    }()

    /// Every recorded ceremony the project replays: each `.json` file below `Fixtures/ceremonies/` and below the
    /// shared folder (when found), decoded, with its path for messages. A file that does not decode is reported
    /// by `passkeyd replay`; here it is an error, so a test over all recordings cannot skip one silently.
    public static func allCeremonies() throws -> [(path: String, ceremony: RecordedCeremony)] {
        var found = ceremonyPaths().map { url($0) }
        if let shared = sharedCeremonyRoot,
            let walker = FileManager.default.enumerator(at: shared, includingPropertiesForKeys: nil)
        {
            var sharedFiles: [URL] = []
            for case let file as URL in walker where file.pathExtension == "json" { sharedFiles.append(file) }
            found += sharedFiles.sorted { $0.path < $1.path }
        }
        return try found.map { file in
            (file.path, try RecordedCeremony(json: Array(Data(contentsOf: file))))
        }
    }
}
