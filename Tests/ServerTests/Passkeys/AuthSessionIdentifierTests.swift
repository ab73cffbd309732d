import Crypto
import Foundation
import Testing

@testable import Service

@Suite("Sealed auth session ids: 16 bytes in base64url that sort by creation time as text")
struct AuthSessionIdentifierTests {
    static let instant = Date(timeIntervalSince1970: 1_780_000_000.123)

    @Test("an id decodes as the 16 bytes the sealed session carries, its last 10 the random bytes given")
    func shape() throws {
        let random: [UInt8] = [0xFF, 0x00, 0x7F, 0x80, 0x01, 0xFE, 0x10, 0x20, 0x30, 0x40]
        let id = AuthSessionIdentifier.make(now: Self.instant, random: random)
        #expect(id.utf8.count == 22)
        let bytes = try #require(Base64URL.decode(id))
        #expect(bytes.count == AuthSessionCoding.idByteCount)
        #expect(Array(bytes.suffix(10)) == random)
        let fresh = try AuthSessionSealer.newSessionID(now: Self.instant)
        #expect(fresh.prefix(8) == id.prefix(8), "the time prefix is the instant's")
        #expect(try AuthSessionSealer.newSessionID(now: Self.instant) != fresh, "ids of one instant differ")
    }

    @Test("later milliseconds sort after earlier ones as text, through every digit of the time")
    func ordering() {
        let start = UInt64(Self.instant.timeIntervalSince1970 * 1000)
        // Each step crosses a digit boundary somewhere: 1 ms through 64 consecutive values (base64url's value order,
        // A…Za…z0…9-_, is not its ASCII order, so a plain big-endian time would sort 'z' after '0'), then a
        // carry into each higher digit.
        var instants = (0..<130).map { start + UInt64($0) }
        for digit in 1...7 { instants.append(((start >> (6 * UInt64(digit))) + 1) << (6 * UInt64(digit))) }
        instants = Array(Set(instants)).sorted()  // a carry may fall among the consecutive values
        let ids = instants.map {
            // Half a millisecond in, so that the Date's binary fraction cannot floor to the millisecond before.
            AuthSessionIdentifier.make(now: Date(timeIntervalSince1970: (Double($0) + 0.5) / 1000), random: [])
        }
        for (earlier, later) in zip(ids, ids.dropFirst()) {
            #expect(Array(earlier.utf8).lexicographicallyPrecedes(Array(later.utf8)), "\(earlier) < \(later)")
        }
    }

    @Test("the time's digits: 0 is all '-', the largest 48-bit time all 'z'; out-of-range instants clamp")
    func clamping() {
        func prefix(_ seconds: Double) -> Substring {
            AuthSessionIdentifier.make(now: Date(timeIntervalSince1970: seconds), random: []).prefix(8)
        }
        #expect(prefix(0) == "--------")
        #expect(prefix(-5) == "--------")
        #expect(prefix(.nan) == "--------")
        #expect(prefix(1e300) == "zzzzzzzz")
        #expect(prefix(0.0635) == "-------z", "63 ms: the last character in ASCII order")
        #expect(prefix(0.0645) == "------0-", "64 ms: a carry into the next digit")
    }
}
