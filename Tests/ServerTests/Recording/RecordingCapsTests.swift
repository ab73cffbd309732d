import Foundation
import JSON
import Synchronization
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Record mode: the per-file cap, the directory cap and oldest-first deletion")
struct RecordingCapsTests {
    static let time = Date(timeIntervalSince1970: 1_796_184_000)

    /// A recording that serializes to exactly `bytes` bytes, its newline included (`"x…x"` and `\n`).
    static func recording(_ bytes: Int) -> @Sendable (String) -> JSONValue {
        { _ in .string(String(repeating: "x", count: bytes - 3)) }
    }

    /// A fresh 0700 directory.
    static func directory() throws -> String {
        let path = CeremonyRecorderTests.temporaryPath()
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        return path
    }

    /// The directory's files and their sizes.
    static func sizes(_ directory: String) -> [String: Int] {
        var sizes: [String: Int] = [:]
        for name in CeremonyRecorderTests.recordings(directory) {
            let path = (directory as NSString).appendingPathComponent(name)
            sizes[name] = ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int) ?? -1
        }
        return sizes
    }

    /// The sequence numbers of the recordings in `directory`, in name order.
    static func sequences(_ directory: String) -> [Int] {
        CeremonyRecorderTests.recordings(directory).compactMap { RecordingIndex.parse($0)?.sequence }
    }

    @Test("a ceremony whose recording passes recording.max_file_bytes is answered as usual and not written; one line")
    func fileCap() async throws {
        let directory = CeremonyRecorderTests.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Smaller than any recording: every ceremony is refused a file, none is refused an answer.
        let harness = try PasskeyHarness(recording: { logger in
            try CeremonyRecorder.open(directory: directory, maxFileBytes: 200, logger: logger)
        })
        var passkey = Passkey()
        let tokens = try await harness.signUp(&passkey)
        #expect(tokens["access_token"]?.stringValue != nil)
        for _ in 0..<3 { #expect(try await harness.logIn(&passkey).status == 200) }
        await harness.context.recorder?.drain()

        #expect(CeremonyRecorderTests.recordings(directory).isEmpty)
        #expect(harness.context.recorder?.unwrittenTotals == [.tooLarge: 4])
        // The first at once, the other three (within the minute) in one line at the drain: not one line each.
        let lines = harness.logLines.all.filter { $0.contains("recordings not written") }
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first?.contains("\"too_large\":1,") == true && lines.last?.contains("\"too_large\":3,") == true)
        #expect(lines.allSatisfy { $0.contains("\"level\":\"warning\"") && $0.contains("\"max_file_bytes\":200") })
        // Nothing of the ceremony: no name, no challenge, no credential.
        #expect(lines.allSatisfy { !$0.contains("authentication") && !$0.contains("registration") })
    }

    @Test("a recording over the file cap costs no older recording; one within it is written")
    func fileCapSparesOlder() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let recorder = try CeremonyRecorder.open(
            directory: directory, maxBytes: 1_000, maxFileBytes: 400, logger: Logger(sink: { _ in }))
        for _ in 0..<3 { recorder.record("authentication", refusal: nil, at: Self.time, make: Self.recording(300)) }
        recorder.record("authentication", refusal: nil, at: Self.time, make: Self.recording(401))
        recorder.record("authentication", refusal: nil, at: Self.time, make: Self.recording(400))
        await recorder.drain()
        // 300 × 3 + 400 > 1000: the oldest went for the 400-byte one; the 401-byte one took nothing.
        #expect(Self.sequences(directory) == [2, 3, 5])
        #expect(recorder.unwrittenTotals == [.tooLarge: 1])
    }

    @Test("the directory stays within recording.max_bytes: the oldest recordings go first, other files stay")
    func rotation() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Not the recorder's: never counted, never deleted, however large or recording-like.
        let others = ["notes.txt", "recording.json", "20261202T040000.250Z-000001-authentication-ok.json.bak"]
        for name in others {
            let path = (directory as NSString).appendingPathComponent(name)
            _ = FileManager.default.createFile(atPath: path, contents: Data(repeating: 0x41, count: 5_000))
        }
        let lines = PasskeyHarness.LogLines()
        let recorder = try CeremonyRecorder.open(
            directory: directory, maxBytes: 1_000, maxFileBytes: 1_000, logger: Logger(sink: { lines.append($0) }))
        #expect(recorder.held.bytes == 0)
        for second in 0..<7 {
            recorder.record(
                "registration", refusal: nil, at: Self.time + Double(second), make: Self.recording(300))
        }
        await recorder.drain()
        let sizes = Self.sizes(directory)
        let recordings = sizes.filter { !others.contains($0.key) }
        #expect(recordings.count == 3, "\(sizes)")
        #expect(recordings.values.reduce(0, +) <= 1_000)
        #expect(Self.sequences(directory) == [5, 6, 7])
        #expect(others.allSatisfy { sizes[$0] == 5_000 })
        #expect(recorder.held == (3, 900))
        // Said once, not at each deletion.
        #expect(lines.all.filter { $0.contains("oldest recordings are deleted") }.count == 1)
    }

    @Test("the total is read at start: recordings of an earlier run count, and go first")
    func earlierRun() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try CeremonyRecorder.open(directory: directory, maxBytes: 1_000, logger: Logger(sink: { _ in }))
        for second in 0..<3 {
            first.record("authentication", refusal: nil, at: Self.time + Double(second), make: Self.recording(300))
        }
        await first.drain()
        let earlier = CeremonyRecorderTests.recordings(directory)
        // A half-written recording a crash left: deleted at start. Someone else's .partial: left alone.
        let crashed = (directory as NSString).appendingPathComponent(
            "20261202T040009.000Z-000009-authentication-ok.json.partial")
        let foreign = (directory as NSString).appendingPathComponent("download.partial")
        _ = FileManager.default.createFile(atPath: crashed, contents: Data(repeating: 0x41, count: 100))
        _ = FileManager.default.createFile(atPath: foreign, contents: Data(repeating: 0x41, count: 100))

        let second = try CeremonyRecorder.open(directory: directory, maxBytes: 1_000, logger: Logger(sink: { _ in }))
        #expect(second.held == (3, 900))
        #expect(!FileManager.default.fileExists(atPath: crashed) && FileManager.default.fileExists(atPath: foreign))
        // A later run's sequence numbers start again at 1; the time orders the runs.
        second.record("authentication", refusal: nil, at: Self.time + 60, make: Self.recording(300))
        second.record("authentication", refusal: nil, at: Self.time + 61, make: Self.recording(300))
        await second.drain()
        let kept = CeremonyRecorderTests.recordings(directory).filter { $0.hasSuffix(".json") }
        #expect(kept.count == 3, "\(kept)")
        #expect(kept.first == earlier.last)
        #expect(second.held == (3, 900))

        // A cap lowered since: the oldest are deleted at start, down to it.
        let third = try CeremonyRecorder.open(directory: directory, maxBytes: 600, logger: Logger(sink: { _ in }))
        #expect(third.held == (2, 600))
        #expect(CeremonyRecorderTests.recordings(directory).filter { $0.hasSuffix(".json") } == Array(kept.suffix(2)))
    }

    @Test("recordings beyond the backlog are dropped and counted in one line, not one line each")
    func backlog() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let lines = PasskeyHarness.LogLines()
        let recorder = try CeremonyRecorder.open(directory: directory, logger: Logger(sink: { lines.append($0) }))
        // The first recording holds the queue until all are queued: the backlog fills whatever the disk's speed.
        let release = DispatchSemaphore(value: 0)
        recorder.record("authentication", refusal: nil, at: Self.time) { _ in
            release.wait()
            return .string("first")
        }
        for _ in 1..<(CeremonyRecorder.backlogLimit + 44) {
            recorder.record("authentication", refusal: nil, at: Self.time, make: Self.recording(10))
        }
        #expect(lines.all.filter { $0.contains("recordings not written") }.count == 1)
        release.signal()
        await recorder.drain()
        #expect(recorder.unwrittenTotals == [.backlogFull: 44])
        #expect(CeremonyRecorderTests.recordings(directory).count == CeremonyRecorder.backlogLimit)
        let reports = lines.all.filter { $0.contains("recordings not written") }
        #expect(reports.count == 2, "\(reports)")
        #expect(reports.last?.contains("\"backlog_full\":43,") == true)
    }

    @Test("recordings made at once from many requests keep the directory within its cap and its count exact")
    func concurrentRequests() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let recorder = try CeremonyRecorder.open(
            directory: directory, maxBytes: 3_000, maxFileBytes: 3_000, logger: Logger(sink: { _ in }))
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<25 {
                        let size = 250 + (task * 25 + index) % 100
                        recorder.record(
                            "authentication", refusal: nil, at: Self.time + Double(index), make: Self.recording(size))
                    }
                }
            }
        }
        await recorder.drain()
        let sizes = Self.sizes(directory)
        let onDisk = sizes.values.reduce(0, +)
        #expect(onDisk <= 3_000 && onDisk > 3_000 - 350, "\(sizes)")
        #expect(recorder.held == (sizes.count, onDisk))
        #expect(recorder.unwrittenTotals.isEmpty)
    }
}
