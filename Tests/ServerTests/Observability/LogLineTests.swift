import Foundation
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("Log lines")
struct LogLineTests {
    @Test("control characters, quotes and line separators cannot split or forge a line")
    func escaping() throws {
        var line = LogLine(time: Date(timeIntervalSince1970: 0), level: "info", message: "request")
        line.add("path", "/a\n{\"forged\":1}\u{1b}[31m\u{2028}")
        line.add("status", 200)
        let rendered = line.rendered
        #expect(rendered.filter { $0 == "\n" }.count == 1)
        #expect(rendered.hasSuffix("}\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(rendered.utf8)) as? [String: Any])
        #expect(object["path"] as? String == "/a\n{\"forged\":1}\u{1b}[31m\u{2028}")
        #expect(object["time"] as? String == "1970-01-01T00:00:00.000Z")
        #expect(!rendered.contains("\u{1b}"))
    }

    @Test("a string value is bounded: a client's long path or header cannot fill the log")
    func bounded() throws {
        var line = LogLine(time: Date(timeIntervalSince1970: 0), level: "info", message: "request")
        line.add("path", "/" + String(repeating: "é", count: 40_000))
        line.add("short", "/healthz")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.rendered.utf8)) as? [String: Any])
        let path = try #require(object["path"] as? String)
        #expect(path.hasSuffix(LogLine.truncationMark))
        #expect(path.utf8.count <= LogLine.maximumValueBytes + LogLine.truncationMark.utf8.count)
        #expect(object["short"] as? String == "/healthz")
    }
}
