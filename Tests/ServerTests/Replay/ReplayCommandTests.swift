import Foundation
import Testing

@testable import Server

private let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

@Suite("passkeyd replay")
struct ReplayCommandTests {
    private func run(_ paths: [String]) -> (status: Int32, lines: [String]) {
        var lines: [String] = []
        let status = ReplayCommand.run(paths: paths) { lines.append($0) }
        return (status, lines)
    }

    @Test("every recorded ceremony in Fixtures/ceremonies replays as recorded")
    func fixtures() {
        let result = run([repositoryRoot.appendingPathComponent("Fixtures/ceremonies").path])
        #expect(result.status == 0)
        #expect(result.lines.last?.hasSuffix("passed, 0 failed") == true)
        // 24 peer recordings and 33 mutations at least; own cases may add more.
        let passed = result.lines.filter { $0.hasPrefix("PASS ") }.count
        #expect(passed >= 57)
    }

    @Test("a ceremony whose expectation does not hold is a FAIL line with expected and actual, and exit 1")
    func failingCeremony() throws {
        let source = repositoryRoot.appendingPathComponent(
            "Fixtures/ceremonies/peers/py_webauthn/reg.verifies_none_attestation_response.json")
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: source)) as? [String: Any])
        object["rpId"] = "other.example"  // the recording now expects success for the wrong RP: must fail
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let line = try JSONSerialization.data(withJSONObject: object)
        // The same ceremony twice in a .jsonl file, once changed and once as recorded.
        var jsonl = line + Data("\n".utf8)
        jsonl += try Data(contentsOf: source).filter { $0 != UInt8(ascii: "\n") } + Data("\n".utf8)
        try jsonl.write(to: directory.appendingPathComponent("two.jsonl"))
        let result = run([directory.path])
        #expect(result.status == 1)
        #expect(result.lines.last == "1 passed, 1 failed")
        let failure = try #require(result.lines.first { $0.hasPrefix("FAIL ") })
        #expect(failure.contains("expected ok, got error rpIDHashMismatch"))
    }

    @Test("a missing path or a file that is not a ceremony fails loudly")
    func missingAndMalformed() throws {
        #expect(run(["/nonexistent/ceremonies"]).status == 1)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-ceremony-\(UUID().uuidString).json")
        try Data(#"{"hello":1}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = run([file.path])
        #expect(result.status == 1)
        #expect(result.lines.last == "0 passed, 1 failed")
    }

    @Test("the benchmark reports a rate per category and refuses input that does not replay as recorded")
    func benchmark() throws {
        let peers = repositoryRoot.appendingPathComponent("Fixtures/ceremonies/peers/py_webauthn")
        let line = try ReplayBenchmark.run(
            paths: [peers.appendingPathComponent("reg.verifies_none_attestation_response.json").path,
                    peers.appendingPathComponent("auth.verify_authentication_response_with_EC2_public_key.json").path],
            seconds: 0.2)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: [String: Double]])
        #expect(Set(object.keys) == ["registration.none", "authentication"])
        #expect((object["authentication"]?["ceremonies"] ?? 0) > 0)
        for (name, figures) in object {
            // The median of five repetitions lies between the slowest and the fastest.
            #expect(figures["repetitions"] == 5, "\(name)")
            let median = try #require(figures["per_second"]), low = try #require(figures["per_second_min"])
            let high = try #require(figures["per_second_max"])
            #expect(low > 0 && low <= median && median <= high, "\(name): \(low) \(median) \(high)")
        }
        #expect(throws: ReplayBenchmark.Failure.self) { try ReplayBenchmark.run(paths: ["/nonexistent"], seconds: 0.1) }
    }
}
