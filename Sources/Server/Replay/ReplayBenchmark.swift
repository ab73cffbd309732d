import Crypto
import Foundation
import WebAuthn

/// `passkeyd replay --bench`: verifies the input repeatedly on one thread and reports ceremonies per second
/// per category (`registration.<fmt>`, `authentication`) as one JSON line. Every timed verification is also
/// checked to have the recorded outcome, so a fast wrong answer cannot be measured.
///
/// Each timed iteration does what the server does per request and nothing else: the relying party's side
/// (issued challenge, origin policy, parsed trust anchors, verification time) is prepared once per
/// recording, as a server prepares it before the response arrives; the response is verified from its raw
/// base64url fields every time, and an authentication parses the stored COSE_Key every time.
public enum ReplayBenchmark {
    /// Why the benchmark could not run.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Measures for about `seconds` in total, split evenly between the categories. Returns the JSON line.
    public static func run(paths: [String], seconds: Double) throws -> String {
        var groups: [String: [PreparedCeremony]] = [:]
        for entry in CeremonyFiles.load(paths) {
            guard case .success(let ceremony) = entry.ceremony else {
                throw Failure(description: "\(entry.location) is not a recorded ceremony")
            }
            groups[category(of: ceremony), default: []].append(PreparedCeremony(ceremony))
        }
        guard !groups.isEmpty else { throw Failure(description: "no recorded ceremonies found") }
        // One untimed pass proves every ceremony replays as recorded, by the full field-by-field comparison
        // and by the quick check the timed loop uses (and warms caches).
        for prepared in groups.values.joined()
        where !CeremonyReplayer.replay(prepared).passed || !prepared.replaysAsRecorded() {
            let name = prepared.recording.name
            throw Failure(description: "\(name) does not replay as recorded; refusing to benchmark it")
        }
        let budget = seconds / Double(groups.count)
        var fields: [String] = []
        for (name, ceremonies) in groups.sorted(by: { $0.key < $1.key }) {
            let clock = ContinuousClock()
            let start = clock.now
            var count = 0
            var mismatches = 0
            repeat {
                for prepared in ceremonies where !prepared.replaysAsRecorded() { mismatches += 1 }
                count += ceremonies.count
            } while (clock.now - start) < .milliseconds(Int(budget * 1000))
            let elapsed = clock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            guard mismatches == 0 else { throw Failure(description: "\(name): \(mismatches) verifications disagreed") }
            fields.append(
                "\"\(name)\":{\"ceremonies\":\(count),\"seconds\":\(String(format: "%.3f", seconds)),"
                    + "\"per_second\":\(String(format: "%.1f", Double(count) / seconds))}")
        }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// `registration.<fmt>` (read from the attestation object) or `authentication`.
    static func category(of ceremony: RecordedCeremony) -> String {
        guard ceremony.ceremony == .registration else { return "authentication" }
        guard let text = ceremony.response.response.attestationObject, let bytes = Base64URL.decode(text),
            let object = try? AttestationObject(bytes: bytes)
        else { return "registration.unparsable" }
        return "registration.\(object.format)"
    }
}
