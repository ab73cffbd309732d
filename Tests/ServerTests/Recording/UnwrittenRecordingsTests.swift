import Foundation
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("Record mode: recordings not written, counted and reported once in a while")
struct UnwrittenRecordingsTests {
    @Test("the first is reported at once, then one report per interval with the counts since the previous one")
    func throttled() {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        var unwritten = UnwrittenRecordings()
        #expect(unwritten.count(.tooLarge, at: start) == [.tooLarge: 1])
        for second in 1..<50 { #expect(unwritten.count(.tooLarge, at: start + Double(second)) == nil) }
        #expect(unwritten.count(.backlogFull, at: start + 59) == nil)
        #expect(unwritten.count(.tooLarge, at: start + 60) == [.tooLarge: 50, .backlogFull: 1])
        #expect(unwritten.takeUnreported() == nil)
        #expect(unwritten.count(.backlogFull, at: start + 61) == nil)
        #expect(unwritten.takeUnreported() == [.backlogFull: 1])
        #expect(unwritten.total == [.tooLarge: 51, .backlogFull: 2])
    }

    @Test("a clock set back does not silence the reports")
    func clockSetBack() {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        var unwritten = UnwrittenRecordings()
        #expect(unwritten.count(.tooLarge, at: start) != nil)
        #expect(unwritten.count(.tooLarge, at: start - 30) == nil)
        #expect(unwritten.count(.tooLarge, at: start - 3_600) == [.tooLarge: 2])
    }
}
