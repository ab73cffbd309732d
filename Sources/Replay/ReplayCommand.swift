import Foundation
import WebAuthn

/// `passkeyd replay PATH…`: verifies recorded ceremonies with exactly the verifiers the server runs and prints
/// one line per ceremony and a closing `N passed, M failed` line. A recording whose `response` is malformed is a
/// refused ceremony (as at the token endpoint); only a file that is not a recording at all is a file error.
public enum ReplayCommand {
    /// Replays every ceremony under `paths`, writing lines through `output`. Returns the exit status:
    /// 0 when every ceremony passed, 1 when any failed or none was found.
    public static func run(paths: [String], output: (String) -> Void) -> Int32 {
        let entries = CeremonyFiles.load(paths)
        var passed = 0
        var failed = 0
        for entry in entries {
            switch entry.ceremony {
            case .failure(let failure):
                failed += 1
                output("FAIL \(entry.location): \(failure.reason)")
            case .success(let ceremony):
                let outcome = CeremonyReplayer.replay(ceremony)
                if outcome.passed { passed += 1 } else { failed += 1 }
                // A refusal names its code; a failure names each differing field, and the outcome when that differs.
                output(outcome.description)
            }
        }
        if entries.isEmpty { output("no recorded ceremonies found under \(paths.joined(separator: " "))") }
        output("\(passed) passed, \(failed) failed")
        return failed == 0 && passed > 0 ? 0 : 1
    }
}
