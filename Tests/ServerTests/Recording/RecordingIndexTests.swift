import Foundation
import Testing
import WebAuthn

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("Record mode: the index of recordings on disk")
struct RecordingIndexTests {
    static let time = Date(timeIntervalSince1970: 1_796_184_000.25)

    @Test("the recorder's names read back and rebuild exactly")
    func roundTrip() throws {
        for sequence in [1, 42, 999_999, 1_000_000, 123_456_789] {
            for refusal in [nil, .badSignature] as [WebAuthnError.Code?] {
                let name = CeremonyRecorder.fileName(
                    "authentication", refusal: refusal, at: Self.time, sequence: sequence)
                let parsed = try #require(RecordingIndex.parse(name + ".json"), "\(name)")
                #expect(parsed.sequence == sequence)
                #expect(RecordingIndex.fileName(parsed) == name + ".json")
            }
        }
        let parsed = RecordingIndex.parse("20261202T040000.250Z-000007-registration-ok.json")
        #expect(parsed == RecordingIndex.Name(stamp: 20_261_202_040_000_250, sequence: 7, suffix: "registration-ok"))
    }

    @Test(
        "names the recorder does not write are not recordings",
        arguments: [
            "notes.json", "20261202T040000.250Z-000007-registration-ok.json.partial",
            "20261202T040000.250Z-000007-registration-ok.jsonx", "20261202T040000.250Z-000007-registration-ok",
            "20261202T040000.250Z-0000007-registration-ok.json", "20261202T040000.250Z-00007-registration-ok.json",
            "20261202T040000.250Z-000007-enrolment-ok.json", "20261202T040000.250Z-000007-registration-fine.json",
            "20261202T040000.250Z-000007-registration-refused-.json",
            "20261202T040000.250Z-000007-registration-refused-Bad.json",
            "20261202T040000.250Z-000007-registration-refused-a/b.json",
            "20261202X040000.250Z-000007-registration-ok.json", "2026120AT040000.250Z-000007-registration-ok.json",
            "20261202T040000,250Z-000007-registration-ok.json", "20261202T040000.250+000007-registration-ok.json",
            "20261202T040000.250Z-0000000000000000007-registration-ok.json", "x.json", ".json",
        ])
    func foreignNames(name: String) {
        #expect(RecordingIndex.parse(name) == nil)
        var index = RecordingIndex()
        let inserted = index.insert(name, bytes: 10)
        #expect(!inserted)
        #expect(index.count == 0 && index.totalBytes == 0)
    }

    @Test("the oldest is the earliest by time, then sequence, whatever the order of insertion")
    func order() {
        func name(_ second: Double, _ sequence: Int) -> String {
            CeremonyRecorder.fileName("registration", refusal: nil, at: Self.time + second, sequence: sequence)
                + ".json"
        }
        let names = [name(5, 1), name(1, 9), name(1, 10), name(3, 2), name(0, 100), name(5, 0)]
        var index = RecordingIndex()
        for (offset, file) in names.enumerated() {
            let inserted = index.insert(file, bytes: offset + 1)
            #expect(inserted)
        }
        let bulk = RecordingIndex(names.enumerated().map { ($1, $0 + 1) } + [("other.txt", 1_000)])
        #expect(index.totalBytes == 21 && bulk.totalBytes == 21 && bulk.count == 6)
        let expected = [name(0, 100), name(1, 9), name(1, 10), name(3, 2), name(5, 0), name(5, 1)]
        for var copy in [index, bulk] {
            var seen: [String] = []
            while let oldest = copy.oldest {
                seen.append(oldest.fileName)
                copy.removeOldest()
            }
            #expect(seen == expected)
            #expect(copy.totalBytes == 0 && copy.count == 0)
        }
    }

    @Test("removing many of many keeps the order and the total (the array is compacted on the way)")
    func compaction() {
        var index = RecordingIndex()
        for sequence in 1...3_000 {
            index.insert(
                CeremonyRecorder.fileName("authentication", refusal: nil, at: Self.time, sequence: sequence) + ".json",
                bytes: sequence)
        }
        for _ in 0..<2_500 { index.removeOldest() }
        #expect(index.count == 500)
        #expect(index.totalBytes == (2_501...3_000).reduce(0, +))
        #expect(index.oldest.flatMap { RecordingIndex.parse($0.fileName)?.sequence } == 2_501)
        index.insert(
            CeremonyRecorder.fileName("authentication", refusal: nil, at: Self.time - 1, sequence: 1) + ".json",
            bytes: 7)
        #expect(index.oldest?.bytes == 7)
    }
}
