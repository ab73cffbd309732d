import Foundation
import Replay
import TestSupport
import Testing

@Suite("passkeyd replay")
struct ReplayCommandTests {
    private func run(_ paths: [String]) -> (status: Int32, lines: [String]) {
        var lines: [String] = []
        let status = ReplayCommand.run(paths: paths) { lines.append($0) }
        return (status, lines)
    }

    @Test("every recorded ceremony in Fixtures/ceremonies replays as recorded")
    func fixtures() {
        let result = run([FixtureLoader.url("ceremonies").path])
        #expect(result.status == 0)
        #expect(result.lines.last?.hasSuffix("passed, 0 failed") == true)
        // 24 peer recordings and 33 mutations at least; own cases may add more.
        let passed = result.lines.filter { $0.hasPrefix("PASS ") }.count
        #expect(passed >= 57)
    }

    @Test("a ceremony whose expectation does not hold is a FAIL line with expected and actual, and exit 1")
    func failingCeremony() throws {
        let source = FixtureLoader.url(
            "ceremonies/peers/py_webauthn/reg.verifies_none_attestation_response.json")
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
        #expect(failure.contains("expected ok, got error rp_id_hash_mismatch"))
    }

    @Test("a missing path or a file that is not a ceremony fails loudly")
    func missingAndMalformed() throws {
        #expect(run(["/nonexistent/ceremonies"]).status == 1)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "not-a-ceremony-\(UUID().uuidString).json")
        try Data(#"{"hello":1}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = run([file.path])
        #expect(result.status == 1)
        #expect(result.lines.last == "0 passed, 1 failed")
    }

    /// Writes `documents` (JSON texts) as `.json` files in a fresh folder and replays it.
    private func replay(_ documents: [String: Data]) throws -> (status: Int32, lines: [String]) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, data) in documents { try data.write(to: directory.appendingPathComponent(name + ".json")) }
        return run([directory.path])
    }

    /// The py_webauthn EC2 login recording with its `response` changed by `change` and its expectation set.
    private func recording(
        name: String, ok: Bool, errorCode: String? = nil, _ change: (inout [String: Any]) -> Void
    ) throws -> Data {
        let source = FixtureLoader.url(
            "ceremonies/peers/py_webauthn/auth.verify_authentication_response_with_EC2_public_key.json")
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: source)) as? [String: Any])
        var response = try #require(object["response"] as? [String: Any])
        change(&response)
        object["response"] = response
        object["name"] = name
        var expect: [String: Any] = ["ok": ok]
        if let errorCode { expect["errorCode"] = errorCode }
        object["expect"] = expect
        return try JSONSerialization.data(withJSONObject: object)
    }

    @Test("a recording whose response is malformed is a refused ceremony: PASS with its code when refusal is expected")
    func malformedResponseIsRefused() throws {
        func body(_ change: @escaping (inout [String: Any]) -> Void) -> (inout [String: Any]) -> Void {
            { response in
                var inner = response["response"] as? [String: Any] ?? [:]
                change(&inner)
                response["response"] = inner
            }
        }
        let cases: [(String, (inout [String: Any]) -> Void)] = [
            ("signature-missing", body { $0["signature"] = nil }),
            ("rawId-missing", { $0["rawId"] = nil }),
            ("id-number", { $0["id"] = 7 }),
            ("response-string", { $0["response"] = "x" }),
            ("clientDataJSON-array", body { $0["clientDataJSON"] = [1] }),
            ("authenticatorData-padded", body { $0["authenticatorData"] = "\($0["authenticatorData"] ?? "")==" }),
            ("signature-not-base64url", body { $0["signature"] = "not base64url!" }),
        ]
        var documents: [String: Data] = [:]
        for (name, change) in cases {
            documents[name] = try recording(name: name, ok: false, errorCode: "malformed_response", change)
            // The same recording expecting success fails, naming the refusal.
            documents[name + "-expecting-ok"] = try recording(name: name + "-expecting-ok", ok: true, change)
        }
        let result = try replay(documents)
        for (name, _) in cases {
            #expect(result.lines.contains("PASS \(name) (refused: malformed_response)"), "\(name): \(result.lines)")
            let failure = result.lines.first { $0.hasPrefix("FAIL \(name)-expecting-ok:") }
            #expect(failure?.contains("got error malformed_response") == true, "\(name)")
        }
        #expect(result.lines.last == "\(cases.count) passed, \(cases.count) failed")
    }

    @Test("expect.errorCode is compared: a refusal with another code fails")
    func errorCodeCompared() throws {
        let padded = try recording(name: "padded", ok: false, errorCode: "bad_signature") { response in
            var inner = response["response"] as? [String: Any] ?? [:]
            inner["clientDataJSON"] = (inner["clientDataJSON"] as? String ?? "") + "="
            response["response"] = inner
        }
        let result = try replay(["padded": padded])
        #expect(result.status == 1)
        let failure = try #require(result.lines.first { $0.hasPrefix("FAIL padded:") })
        #expect(failure.contains("errorCode: expected bad_signature, got error malformed_response"))
    }

    @Test("only a file that is not a recording at all is a file error: not JSON, no ceremony, no response")
    func fileErrors() throws {
        let valid = try recording(name: "valid", ok: true) { _ in }
        var object = try #require(try JSONSerialization.jsonObject(with: valid) as? [String: Any])
        object["ceremony"] = nil
        let noCeremony = try JSONSerialization.data(withJSONObject: object)
        object = try #require(try JSONSerialization.jsonObject(with: valid) as? [String: Any])
        object["response"] = nil
        let noResponse = try JSONSerialization.data(withJSONObject: object)
        let result = try replay([
            "valid": valid, "not-json": Data("{\"name\":".utf8), "no-ceremony": noCeremony, "no-response": noResponse,
        ])
        #expect(result.lines.contains("PASS valid"))
        for file in ["not-json", "no-ceremony", "no-response"] {
            let line = result.lines.first {
                $0.hasPrefix("FAIL ") && $0.contains("\(file).json: not a recorded ceremony")
            }
            #expect(line != nil, "\(file): \(result.lines)")
        }
        #expect(result.lines.last == "1 passed, 3 failed")
    }

    @Test("an expect.errorCode that is no WebAuthnError code (the set is closed, snake_case) is a file error naming it")
    func unknownErrorCode() throws {
        // The code's former camelCase spelling is no longer a code.
        let camel = try recording(name: "camel", ok: false, errorCode: "malformedResponse") { $0["rawId"] = nil }
        let snake = try recording(name: "snake", ok: false, errorCode: "malformed_response") { $0["rawId"] = nil }
        let result = try replay(["camel": camel, "snake": snake])
        #expect(result.lines.contains("PASS snake (refused: malformed_response)"), "\(result.lines)")
        let line = try #require(result.lines.first { $0.hasPrefix("FAIL ") && $0.contains("camel.json") })
        #expect(line.contains("not a recorded ceremony"), "\(line)")
        #expect(line.contains(#"expect.errorCode: "malformedResponse" is not a WebAuthnError code"#), "\(line)")
        #expect(result.lines.last == "1 passed, 1 failed")
    }

    @Test("the benchmark reports a rate per category and refuses input that does not replay as recorded")
    func benchmark() throws {
        let peers = FixtureLoader.url("ceremonies/peers/py_webauthn")
        let line = try ReplayBenchmark.run(
            paths: [
                peers.appendingPathComponent("reg.verifies_none_attestation_response.json").path,
                peers.appendingPathComponent("auth.verify_authentication_response_with_EC2_public_key.json").path,
            ],
            seconds: 0.2)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: [String: Double]])
        #expect(Set(object.keys) == ["registration.none", "authentication"])
        #expect((object["authentication"]?["ceremonies"] ?? 0) > 0)
        for (name, figures) in object {
            // The median of five repetitions lies between the slowest and the fastest.
            #expect(figures["repetitions"] == 5, "\(name)")
            let median = try #require(figures["per_second"])
            let low = try #require(figures["per_second_min"])
            let high = try #require(figures["per_second_max"])
            #expect(low > 0 && low <= median && median <= high, "\(name): \(low) \(median) \(high)")
        }
        #expect(throws: ReplayBenchmark.Failure.self) { try ReplayBenchmark.run(paths: ["/nonexistent"], seconds: 0.1) }
    }
}
