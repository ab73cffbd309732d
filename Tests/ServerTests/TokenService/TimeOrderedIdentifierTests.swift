import Foundation
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("UUIDv7 identifiers for refresh-token families (RFC 9562 §5.7)")
struct TimeOrderedIdentifierTests {
    @Test("RFC 9562 Appendix A.6: the example UUIDv7 from its timestamp and random bits")
    func rfcExample() {
        // Tuesday, February 22, 2022 2:22:22.00 PM GMT-05:00 = Unix 1645557742000 ms (0x017F22E279B0).
        let now = Date(timeIntervalSince1970: 1_645_557_742)
        let random: [UInt8] = [0x0C, 0xC3, 0x98, 0xC4, 0xDC, 0x0C, 0x0C, 0x07, 0x39, 0x8F]
        #expect(TimeOrderedIdentifier.make(now: now, random: random) == "017f22e2-79b0-7cc3-98c4-dc0c0c07398f")
    }

    @Test("version and variant bits are forced whatever the random bytes")
    func versionAndVariant() {
        let now = Date(timeIntervalSince1970: 1_700_000_000.5)
        for fill: UInt8 in [0x00, 0xFF] {
            let text = TimeOrderedIdentifier.make(now: now, random: [UInt8](repeating: fill, count: 10))
            let characters = Array(text)
            #expect(characters.count == 36)
            #expect(characters[14] == "7")
            #expect("89ab".contains(characters[19]))
            #expect(text.hasPrefix("018bcfe5-69f4-"))  // 1700000000500 ms
        }
    }

    @Test("ids of later instants sort after earlier ones as text; ids of one instant differ")
    func ordering() throws {
        let start = Date(timeIntervalSince1970: 1_764_000_000)
        var previous = try TimeOrderedIdentifier.make(now: start)
        for step in 1...50 {
            let next = try TimeOrderedIdentifier.make(now: start.addingTimeInterval(Double(step) * 0.002))
            #expect(previous < next)
            previous = next
        }
        #expect(try TimeOrderedIdentifier.make(now: start) != TimeOrderedIdentifier.make(now: start))
    }

    @Test("an instant before 1970, past 48 bits of milliseconds, or not finite clamps instead of trapping")
    func clamping() {
        func prefix(_ seconds: Double) -> Substring {
            TimeOrderedIdentifier.make(now: Date(timeIntervalSince1970: seconds), random: []).prefix(15)
        }
        #expect(prefix(-5) == "00000000-0000-7")
        #expect(prefix(1e300) == "ffffffff-ffff-7")
        #expect(prefix(.nan) == "00000000-0000-7")
    }
}
