import Crypto
import Foundation
import WebAuthn

/// `passkeyd replay --bench`: verifies the input repeatedly on one thread and reports ceremonies per second
/// per category (`registration.<fmt>`, `authentication`) as one JSON line. Every timed verification is also
/// checked to have the recorded outcome, so a fast wrong answer cannot be measured.
public enum ReplayBenchmark {
    /// Why the benchmark could not run.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Measures for about `seconds` in total, split evenly between the categories. Returns the JSON line.
    public static func run(paths: [String], seconds: Double) throws -> String {
        var groups: [String: [RecordedCeremony]] = [:]
        for entry in CeremonyFiles.load(paths) {
            guard case .success(let ceremony) = entry.ceremony else {
                throw Failure(description: "\(entry.location) is not a recorded ceremony")
            }
            groups[category(of: ceremony), default: []].append(ceremony)
        }
        guard !groups.isEmpty else { throw Failure(description: "no recorded ceremonies found") }
        // One untimed pass proves every ceremony replays as recorded (and warms caches).
        for ceremony in groups.values.joined() where !CeremonyReplayer.replay(ceremony).passed {
            throw Failure(description: "\(ceremony.name) does not replay as recorded; refusing to benchmark it")
        }
        let budget = seconds / Double(groups.count)
        var fields: [String] = []
        for (name, ceremonies) in groups.sorted(by: { $0.key < $1.key }) {
            let clock = ContinuousClock()
            let start = clock.now
            var count = 0
            var mismatches = 0
            repeat {
                for ceremony in ceremonies where !CeremonyReplayer.replay(ceremony).passed { mismatches += 1 }
                count += ceremonies.count
            } while (clock.now - start) < .milliseconds(Int(budget * 1000))
            let elapsed = clock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            guard mismatches == 0 else { throw Failure(description: "\(name): \(mismatches) verifications disagreed") }
            fields.append("\"\(name)\":{\"ceremonies\":\(count),\"seconds\":\(String(format: "%.3f", seconds)),"
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
