import Foundation
import WebAuthn

/// Finds and decodes recorded ceremonies: `.json` files (one ceremony each), `.jsonl` files (one per line),
/// and folders of them (searched recursively, in name order so output is stable).
enum CeremonyFiles {
    /// One ceremony read from disk, or why it could not be read.
    struct Entry: Sendable {
        /// `file` or `file:line` for JSON lines.
        let location: String
        let ceremony: Result<RecordedCeremony, DecodeFailure>
    }

    /// A file or line that is not a recorded ceremony.
    struct DecodeFailure: Error, Sendable {
        let reason: String
    }

    /// Reads every ceremony under `paths`. A path that does not exist is reported as a failed entry, not
    /// skipped, so a typo in CI cannot turn into a silent pass.
    static func load(_ paths: [String]) -> [Entry] {
        var entries: [Entry] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                entries.append(
                    Entry(location: path, ceremony: .failure(DecodeFailure(reason: "no such file or folder"))))
                continue
            }
            if isDirectory.boolValue {
                for file in files(under: path) { entries += read(file) }
            } else {
                entries += read(path)
            }
        }
        return entries
    }

    private static func files(under folder: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [] }
        var found: [String] = []
        while let relative = enumerator.nextObject() as? String {
            if relative.hasSuffix(".json") || relative.hasSuffix(".jsonl") {
                found.append((folder as NSString).appendingPathComponent(relative))
            }
        }
        return found.sorted()
    }

    private static func read(_ file: String) -> [Entry] {
        guard let data = FileManager.default.contents(atPath: file) else {
            return [Entry(location: file, ceremony: .failure(DecodeFailure(reason: "cannot read the file")))]
        }
        if file.hasSuffix(".jsonl") {
            var entries: [Entry] = []
            for (index, line) in data.split(separator: UInt8(ascii: "\n")).enumerated()
            where !line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") }) {
                entries.append(Entry(location: "\(file):\(index + 1)", ceremony: decode(Data(line))))
            }
            return entries
        }
        return [Entry(location: file, ceremony: decode(data))]
    }

    private static func decode(_ data: Data) -> Result<RecordedCeremony, DecodeFailure> {
        do {
            return .success(try RecordedCeremony(json: Array(data)))
        } catch DecodingError.dataCorrupted(let context) {
            // A member with a value the format does not allow (e.g. an errorCode that is no WebAuthnError code):
            // name the member and say why, rather than dumping the decoder's context.
            let member = context.codingPath.map(\.stringValue).joined(separator: ".")
            return .failure(
                DecodeFailure(reason: "not a recorded ceremony (format v1): \(member): \(context.debugDescription)"))
        } catch {
            return .failure(DecodeFailure(reason: "not a recorded ceremony (format v1): \(error)"))
        }
    }
}
