import Replay

/// `passkeyd replay PATH...`: verifies recorded ceremonies with the verifiers the server runs (`Replay.ReplayCommand`);
/// `--bench` measures them instead (`ReplayBenchmark`).
package struct ReplayCeremoniesCommand: Command, Equatable {
    /// `--bench`: measure instead of verifying.
    static let bench = Switch("--bench")
    /// `--seconds N`: how long `--bench` measures, at most an hour.
    static let seconds = Option<Double>(
        "--seconds", "N", requirement: "needs a number of seconds between 0 and 3600",
        read: { Double($0).flatMap { $0 > 0 && $0 <= 3600 ? $0 : nil } })
    /// The recordings: files or folders.
    static let paths = Operand("PATH", repeated: true)

    package static let words = ["replay"]
    package static let flags: [any Flag] = [bench, seconds]
    package static let operands = [paths]
    package static let summary = """
        Verify recorded ceremonies (.json files, .jsonl files, or folders of them); prints one line per
        ceremony and a closing "N passed, M failed" line; exits 1 if any failed. --bench measures instead
        for N seconds (default 10): ceremonies/s per category, median of five repetitions, as JSON.
        """

    package var paths: [String]
    package var bench: Bool
    package var seconds: Double

    package init(paths: [String], bench: Bool = false, seconds: Double = 10) {
        self.paths = paths
        self.bench = bench
        self.seconds = seconds
    }

    package init(_ arguments: ParsedArguments) {
        self.init(
            paths: arguments.words(Self.paths), bench: arguments[Self.bench], seconds: arguments[Self.seconds] ?? 10)
    }

    package func run(_ context: CommandContext) async throws(CommandFailure) -> Int32 {
        guard bench else { return ReplayCommand.run(paths: paths, output: context.output) }
        do {
            context.output(try ReplayBenchmark.run(paths: paths, seconds: seconds))
        } catch {
            throw CommandFailure("\(error)")
        }
        return 0
    }
}
