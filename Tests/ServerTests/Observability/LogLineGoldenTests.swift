import Foundation
import Synchronization
import Testing

@testable import Service

/// The access log's exact bytes: timestamps, numbers, escapes and truncation, written out in full so that a change
/// of how a line is built cannot change what it says.
@Suite("Log lines, byte for byte")
struct LogLineGoldenTests {
    @Test(
        "timestamps: epoch, before it, year and leap-day boundaries, five-digit and negative years",
        arguments: [
            (0, "1970-01-01T00:00:00.000Z"),
            (-0.5, "1969-12-31T23:59:59.500Z"),
            (-86_400, "1969-12-31T00:00:00.000Z"),
            (946_684_799.5, "1999-12-31T23:59:59.500Z"),
            (946_684_800, "2000-01-01T00:00:00.000Z"),
            (951_782_400, "2000-02-29T00:00:00.000Z"),
            (951_868_800, "2000-03-01T00:00:00.000Z"),
            (1_672_531_199.875, "2022-12-31T23:59:59.875Z"),
            (1_709_251_199.25, "2024-02-29T23:59:59.250Z"),
            (1_709_251_200, "2024-03-01T00:00:00.000Z"),
            (4_107_455_999.5, "2100-02-27T23:59:59.500Z"),
            (4_107_542_399, "2100-02-28T23:59:59.000Z"),
            (4_107_542_400, "2100-03-01T00:00:00.000Z"),
            (-2_203_891_201, "1900-02-28T23:59:59.000Z"),
            (-2_203_891_200, "1900-03-01T00:00:00.000Z"),
            (253_402_300_799.875, "9999-12-31T23:59:59.875Z"),
            (253_402_300_800, "10000-01-01T00:00:00.000Z"),
            (-62_135_596_800, "0001-01-01T00:00:00.000Z"),
            (-62_167_219_200, "0000-01-01T00:00:00.000Z"),
            (-62_167_219_201, "-001-12-31T23:59:59.000Z"),
        ] as [(Double, String)])
    func timestamps(seconds: Double, expected: String) {
        #expect(LogLine.timestamp(Date(timeIntervalSince1970: seconds)) == expected)
    }

    @Test(
        "fractional seconds: milliseconds truncated, never rounded up into the next second",
        arguments: [
            (0.001, "1970-01-01T00:00:00.001Z"),
            (0.0009, "1970-01-01T00:00:00.000Z"),
            (0.9999, "1970-01-01T00:00:00.999Z"),
            (0.5, "1970-01-01T00:00:00.500Z"),
            (1_764_979_200.0625, "2025-12-06T00:00:00.062Z"),
            (1_764_979_200.999, "2025-12-06T00:00:00.999Z"),
        ] as [(Double, String)])
    func fractions(seconds: Double, expected: String) {
        #expect(LogLine.timestamp(Date(timeIntervalSince1970: seconds)) == expected)
    }

    @Test(
        "milliseconds: three decimals, correctly rounded, ties to even as printf's %.3f",
        arguments: [
            (0, "0.000"), (0.0004, "0.000"), (0.0005, "0.001"), (0.0625, "0.062"), (0.1875, "0.188"),
            (2.5, "2.500"), (1.0625, "1.062"), (1.0635, "1.063"), (0.9995, "1.000"), (12.345678, "12.346"),
            (1_234.5678, "1234.568"), (999.9999, "1000.000"), (1e15, "1000000000000000.000"),
            (-1.5, "-1.500"), (-0.0, "-0.000"), (-0.0001, "-0.000"),
            (1e20, "100000000000000000000.000"), (Double.infinity, "inf"), (Double.nan, "nan"),
        ] as [(Double, String)])
    func milliseconds(value: Double, expected: String) {
        var line = LogLine(time: Date(timeIntervalSince1970: 0), level: "info", message: "m")
        line.add("d", milliseconds: value)
        #expect(
            line.rendered == #"{"time":"1970-01-01T00:00:00.000Z","level":"info","msg":"m","d":"# + expected + "}\n")
    }

    @Test("an access-log line, whole")
    func accessLine() {
        var line = LogLine(time: Date(timeIntervalSince1970: 1_709_251_199.25), level: "info", message: "request")
        line.add("request_id", "r-1")
        line.add("method", "POST")
        line.add("route", "/oauth/token")
        line.add("status", 200)
        line.add("offset", -42)
        line.add("duration_ms", milliseconds: 1.0625)
        #expect(
            line.rendered
                == #"{"time":"2024-02-29T23:59:59.250Z","level":"info","msg":"request","request_id":"r-1","method":"POST","#
                + #""route":"/oauth/token","status":200,"offset":-42,"duration_ms":1.062}"# + "\n")
    }

    @Test("escapes: short forms for quote, backslash, \\n \\r \\t; \\u00xx for other controls and DEL; U+2028/9")
    func escapes() {
        let input = "a\"b\\c\nd\re\tf\u{0}\u{8}\u{C}\u{1B}\u{1F}\u{7F}\u{2027}\u{2028}\u{2029}\u{202A}é€😀/ "
        let expected =
            #"a\"b\\c\nd\re\tf\u0000\u0008\u000c\u001b\u001f\u007f"# + "\u{2027}" + #"\u2028\u2029"#
            + "\u{202A}é€😀/ "
        #expect(LogLine.escape(input) == expected)
        #expect(LogLine.escape("") == "")
        #expect(LogLine.escape("plain-ascii_/healthz") == "plain-ascii_/healthz")
        var line = LogLine(time: Date(timeIntervalSince1970: 0), level: "in\"fo", message: "m\u{2029}")
        line.add("k\n", "v\u{1}")
        #expect(
            line.rendered
                == #"{"time":"1970-01-01T00:00:00.000Z","level":"in\"fo","msg":"m\u2029","k\n":"v\u0001"}"# + "\n")
    }

    @Test("truncation at the byte bound, never inside a character; the mark follows the cut")
    func truncation() {
        let exact = String(repeating: "é", count: 512)
        #expect(LogLine.bounded(exact) == exact)
        #expect(LogLine.bounded("a" + exact) == "a" + String(repeating: "é", count: 511) + LogLine.truncationMark)
        let ascii = String(repeating: "x", count: 2_000)
        #expect(LogLine.bounded(ascii) == String(repeating: "x", count: 1_024) + LogLine.truncationMark)
        let emoji = "ab" + String(repeating: "😀", count: 300)
        #expect(LogLine.bounded(emoji) == "ab" + String(repeating: "😀", count: 255) + LogLine.truncationMark)
        var line = LogLine(time: Date(timeIntervalSince1970: 0), level: "info", message: "m")
        line.add("p", String(repeating: "\n", count: 1_025))
        #expect(
            line.rendered
                == #"{"time":"1970-01-01T00:00:00.000Z","level":"info","msg":"m","p":""#
                + String(repeating: #"\n"#, count: 1_024) + LogLine.truncationMark + "\"}\n")
    }

    @Test("a logger hands its sink the whole line, once")
    func loggerSink() {
        let lines = LockedLines()
        let logger = Logger(minimum: .info) { lines.append($0) }
        logger.log(.debug, "hidden")
        logger.log(.info, "shown", time: Date(timeIntervalSince1970: 86_400)) { $0.add("n", 1) }
        #expect(
            lines.all == [#"{"time":"1970-01-02T00:00:00.000Z","level":"info","msg":"shown","n":1}"# + "\n"])
    }
}

/// Lines a test logger received.
private final class LockedLines: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}
