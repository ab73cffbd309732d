import Crypto
import Foundation
import JSON
import TestSupport
import Testing

@testable import Replay
@testable import WebAuthn

/// clientDataJSON has one reading (the JSON module's parser). Every recorded clientDataJSON (Fixtures/ceremonies and
/// the shared folder), and random one-byte mutations of each, go through it: what it accepts, Foundation's
/// `JSONSerialization` (the reader it replaced) reads to the same members; what it refuses is `malformedClientData`,
/// never a trap.
@Suite("clientDataJSON: one reading, the same members as Foundation's on every recording and its mutations")
struct ClientDataJSONReadingTests {
    /// A deterministic generator (SplitMix64), so a failure names a reproducible input.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Bytes a mutation writes: letters and digits (which keep most texts valid), JSON's structural characters,
    /// escapes, a control character and bytes that break UTF-8.
    static let alphabet = Array("aZ09-_:/.\"\\{}[],: ".utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xFF]

    static func mutate(_ bytes: [UInt8], _ generator: inout SplitMix) -> [UInt8] {
        var mutated = bytes
        guard !mutated.isEmpty else { return mutated }
        let position = Int.random(in: 0..<mutated.count, using: &generator)
        let byte = alphabet.randomElement(using: &generator) ?? 0
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: mutated[position] = byte
        case 1: mutated.insert(byte, at: position)
        default: mutated.remove(at: position)
        }
        return mutated
    }

    @Test("every recording and 150 mutations of each: accepted alike, or refused as malformedClientData")
    func agreesWithFoundation() throws {
        var generator = SplitMix(state: 15)
        var accepted = 0
        var refused = 0
        var recordings = 0
        for recording in Base64URLStrictnessDifferentialTests.recordings {
            guard let text = recording.ceremony.response["response"]?["clientDataJSON"]?.stringValue,
                let bytes = Base64URL.decode(text)
            else { continue }
            recordings += 1
            var inputs = [bytes]
            for _ in 0..<150 { inputs.append(Self.mutate(bytes, &generator)) }
            for input in inputs {
                let parsed: CollectedClientData
                do {
                    parsed = try CollectedClientData(bytes: input)
                } catch {
                    refused += 1
                    #expect(error.code == .malformedClientData, "\(recording.path): \(error)")
                    continue
                }
                accepted += 1
                let name = "\(recording.path): \(String(decoding: input, as: UTF8.self))"
                let object = try #require(
                    try? JSONSerialization.jsonObject(with: Data(input)) as? [String: Any], "\(name)")
                #expect(object["type"] as? String == parsed.type, "\(name)")
                #expect(object["origin"] as? String == parsed.origin, "\(name)")
                #expect(
                    ((object["challenge"] as? String).flatMap { Base64URL.decode($0) } ?? []) == parsed.challenge,
                    "\(name)")
                #expect(object["topOrigin"] as? String == parsed.topOrigin, "\(name)")
                #expect(object["crossOrigin"] as? Bool == parsed.crossOrigin, "\(name)")
            }
        }
        #expect(recordings > 100)
        #expect(accepted > recordings && refused > recordings)
    }
}
