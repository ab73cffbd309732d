import Configuration
import Foundation

/// Writes log lines to standard error, one `write(2)` per line so concurrent lines never interleave.
/// Never give it bodies, tokens or secrets: only the fields the callers choose.
public struct Logger: Sendable {
    /// The minimum level written (`log_level`).
    public typealias Level = LogLevel

    private let minimum: Level
    private let sink: @Sendable (String) -> Void

    /// A logger writing to standard error.
    public init(minimum: Level = .info) {
        self.minimum = minimum
        self.sink = { line in
            var bytes = Array(line.utf8)
            bytes.withUnsafeMutableBytes { buffer in
                guard let base = buffer.baseAddress else { return }
                var offset = 0
                while offset < buffer.count {
                    let written = write(STDERR_FILENO, base + offset, buffer.count - offset)
                    if written <= 0 { return }
                    offset += written
                }
            }
        }
    }

    /// A logger handing lines to `sink` (tests).
    public init(minimum: Level = .debug, sink: @escaping @Sendable (String) -> Void) {
        self.minimum = minimum
        self.sink = sink
    }

    /// Writes one line with extra fields, if `level` is enabled.
    public func log(
        _ level: Level, _ message: String, time: Date = Date(), _ fields: (inout LogLine) -> Void = { _ in }
    ) {
        guard level >= minimum else { return }
        var line = LogLine(time: time, level: level.name, message: message)
        fields(&line)
        sink(line.rendered)
    }
}
