import Foundation
import Testing

@testable import Service

/// The log line's formatting against the Foundation and libc formatting it replaced, on many generated inputs:
/// `String(format:)` with `gmtime_r` for timestamps, `%.3f` for milliseconds, a scalar-by-scalar escaper.
@Suite("Log lines against the formatting they replaced")
struct LogLineReferenceTests {
    /// SplitMix64: the same inputs on every run.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func referenceTimestamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        let millis = Int((date.timeIntervalSince1970 - Double(seconds)) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
            Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), millis)
    }

    static func referenceEscape(_ value: String) -> String {
        var out = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _
            where scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x2028 || scalar.value == 0x2029:
                out += String(format: "\\u%04x", scalar.value)
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func milliseconds(_ value: Double) -> String {
        var line = LogLine(time: Date(timeIntervalSince1970: 0), level: "i", message: "m")
        line.add("d", milliseconds: value)
        let rendered = line.rendered
        let prefix = #"{"time":"1970-01-01T00:00:00.000Z","level":"i","msg":"m","d":"#
        return String(rendered.dropFirst(prefix.count).dropLast(2))
    }

    @Test("timestamps from 1900 to 2400, and around every midnight of a leap-year cycle")
    func timestamps() {
        var generator = Generator(state: 1)
        for _ in 0..<20_000 {
            let seconds = Double.random(in: -2_208_988_800...13_569_465_600, using: &generator)
            let date = Date(timeIntervalSince1970: seconds)
            #expect(LogLine.timestamp(date) == Self.referenceTimestamp(date), "\(seconds)")
        }
        for day in stride(from: 946_684_800, to: 946_684_800 + 4 * 366 * 86_400, by: 86_400) {
            for offset in [-0.001, 0, 0.999] {
                let date = Date(timeIntervalSince1970: Double(day) + offset)
                #expect(LogLine.timestamp(date) == Self.referenceTimestamp(date), "\(day) \(offset)")
            }
        }
    }

    @Test("milliseconds: durations from nanoseconds to hours, exact ties, and large values")
    func durations() {
        var generator = Generator(state: 2)
        var values: [Double] = []
        for _ in 0..<20_000 {
            values.append(
                Double.random(in: 0..<1, using: &generator) * pow(10, Double(Int.random(in: -6...7, using: &generator)))
            )
        }
        for numerator in 0..<4_096 {
            values.append(Double(numerator) / 4_096)  // every multiple of 2^-12 below 1: many exact ties
            values.append(Double(numerator) * 1_000.0005)
        }
        values += [
            1e16, 9_007_199_254_740.5, 4.5e15, Double.greatestFiniteMagnitude, Double.leastNonzeroMagnitude, -2.0005,
        ]
        for value in values {
            #expect(Self.milliseconds(value) == String(format: "%.3f", value), "\(value)")
        }
    }

    @Test("escaping: strings of ASCII, controls, line separators and wider characters")
    func escaping() {
        var generator = Generator(state: 3)
        let pool: [Unicode.Scalar] = [
            "a", "Z", "0", " ", "/", "\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{8}", "\u{C}", "\u{1F}", "\u{7F}",
            "\u{80}", "é", "\u{2027}", "\u{2028}", "\u{2029}", "\u{202F}", "€", "\u{E280}", "😀", "\u{10FFFF}",
        ]
        for _ in 0..<5_000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...40, using: &generator) {
                text.append(pool[Int.random(in: 0..<pool.count, using: &generator)])
            }
            let string = String(text)
            #expect(LogLine.escape(string) == Self.referenceEscape(string), "\(Array(string.utf8))")
        }
    }
}
