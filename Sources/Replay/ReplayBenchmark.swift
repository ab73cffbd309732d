import Crypto
import Foundation
import WebAuthn

/// `passkeyd replay --bench`: verifies the input repeatedly on one thread and reports ceremonies per second
/// per category (`registration.<fmt>`, `authentication`) as one JSON line: the median of five repetitions, with
/// the slowest and fastest. Every timed verification is also checked to have the recorded outcome, so a fast
/// wrong answer cannot be measured.
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

    /// Measures for about `seconds` in total, split evenly between the categories and repetitions. Returns the
    /// JSON line.
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
        // Five repetitions, interleaved across the categories as the peers' script does, so drift on a shared
        // machine spreads over every category; each category reports its median repetition.
        let budget = seconds / Double(groups.count * repetitions)
        let ordered = groups.sorted(by: { $0.key < $1.key })
        var rates = [[Double]](repeating: [], count: ordered.count)
        var totals = [(count: Int, seconds: Double)](repeating: (0, 0), count: ordered.count)
        for _ in 0..<repetitions {
            for (index, (name, ceremonies)) in ordered.enumerated() {
                let (count, elapsed) = try timeRepetition(name, ceremonies, budget: budget)
                rates[index].append(Double(count) / elapsed)
                totals[index].count += count
                totals[index].seconds += elapsed
            }
        }
        let fields = ordered.enumerated().map { index, entry in
            let sorted = rates[index].sorted()
            return "\"\(entry.key)\":{\"ceremonies\":\(totals[index].count),"
                + "\"seconds\":\(String(format: "%.3f", totals[index].seconds)),"
                + "\"repetitions\":\(sorted.count),"
                + "\"per_second\":\(String(format: "%.1f", sorted[sorted.count / 2])),"
                + "\"per_second_min\":\(String(format: "%.1f", sorted.first ?? 0)),"
                + "\"per_second_max\":\(String(format: "%.1f", sorted.last ?? 0))}"
        }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// Repetitions per category; `per_second` is their median.
    static let repetitions = 5

    /// Verifies `ceremonies` in whole passes for at least `budget` seconds.
    /// - Returns: the ceremonies verified and the seconds taken.
    private static func timeRepetition(
        _ name: String, _ ceremonies: [PreparedCeremony], budget: Double
    ) throws -> (count: Int, seconds: Double) {
        let clock = ContinuousClock()
        let start = clock.now
        var count = 0
        var mismatches = 0
        repeat {
            for prepared in ceremonies where !prepared.replaysAsRecorded() { mismatches += 1 }
            count += ceremonies.count
        } while (clock.now - start) < .milliseconds(Int(budget * 1000))
        let elapsed = clock.now - start
        guard mismatches == 0 else { throw Failure(description: "\(name): \(mismatches) verifications disagreed") }
        return (count, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// `registration.<fmt>` (read from the attestation object) or `authentication`.
    static func category(of ceremony: RecordedCeremony) -> String {
        guard ceremony.ceremony == .registration else { return "authentication" }
        guard let response = try? PublicKeyCredentialJSON(json: ceremony.response).registration(),
            let object = try? AttestationObject(bytes: response.attestationObject)
        else { return "registration.unparsable" }
        return "registration.\(object.format)"
    }
}
