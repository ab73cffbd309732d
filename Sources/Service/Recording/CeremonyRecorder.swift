import Dispatch
import Foundation
import JSON
import Synchronization
import WebAuthn

#if canImport(Glibc)
    import Glibc
#endif

/// Record mode (`passkeyd serve --record DIR`, `recording.directory`; docs/recording.md): every WebAuthn ceremony
/// the token endpoint judges is written to DIR as one recording `passkeyd replay` judges again.
///
/// Writing is asynchronous, on one serial queue: the request path only names the file and queues the job (the
/// recording's JSON is built and written on the queue), so a slow or full disk never slows a ceremony, and a write
/// that fails or is refused is logged, never answered. At most `backlogLimit` recordings wait; beyond that a
/// recording is dropped rather than held in memory without bound. `drain()` waits for the queue at stop, so every
/// ceremony answered before the stop is on disk when the server exits.
///
/// The disk is capped: a recording larger than `maxFileBytes` is not written, and before each write the oldest
/// recordings are deleted until the directory's recordings, with the new one, stay within `maxBytes`. Their total is
/// read once at `open` and then kept in memory (`RecordingIndex`), never re-read per request. Recordings not written
/// by choice (too large, backlog full) are counted and logged at most once a minute (`UnwrittenRecordings`).
///
/// Files are written as every secret file is (`SecretFile`: created 0600, O_EXCL, O_NOFOLLOW, flushed with their
/// directory) in a directory that must be 0700 and the server's own; each is written under a `.partial` name and
/// renamed, so `passkeyd replay` never reads half a recording.
public final class CeremonyRecorder: Sendable {
    /// Recordings that may wait for the disk before new ones are dropped.
    package static let backlogLimit = 256

    /// The directory written to.
    public let directory: String
    /// The most the directory's recordings may weigh together (`recording.max_bytes`).
    public let maxBytes: Int
    /// The most one recording may weigh (`recording.max_file_bytes`); larger ones are not written.
    public let maxFileBytes: Int
    private let logger: Logger
    private let queue = DispatchQueue(label: "passkeyd.ceremony-recorder")
    /// Recordings queued and not yet written, the sequence number of the last one named, and those not written.
    private let state = Mutex<(pending: Int, sequence: Int, unwritten: UnwrittenRecordings)>((0, 0, .init()))
    /// The recordings on disk, and whether deleting old ones to stay within `maxBytes` was logged yet; only the queue
    /// changes it once `open` returns.
    private let files: Mutex<(index: RecordingIndex, rotationLogged: Bool)>

    package init(directory: String, maxBytes: Int, maxFileBytes: Int, index: RecordingIndex, logger: Logger) {
        self.directory = directory
        self.maxBytes = maxBytes
        // A recording that could not fit in the directory even alone is too large as well.
        self.maxFileBytes = min(maxFileBytes, maxBytes)
        self.logger = logger
        files = Mutex((index, false))
    }

    /// The recordings on disk now (their number and total size), as the recorder counts them.
    package var held: (count: Int, bytes: Int) { files.withLock { ($0.index.count, $0.index.totalBytes) } }

    /// Recordings not written by choice since the start, by reason.
    package var unwrittenTotals: [UnwrittenRecordings.Reason: Int] { state.withLock { $0.unwritten.total } }

    /// Queues one recording of a ceremony judged at `time`, named by time and outcome; never blocks, never throws.
    /// `make` builds the recording's JSON from its name, on the queue.
    package func record(
        _ ceremony: String, refusal: WebAuthnError.Code?, at time: Date,
        make: @escaping @Sendable (String) -> JSONValue
    ) {
        let sequence: Int? = state.withLock { state in
            guard state.pending < Self.backlogLimit else { return nil }
            state.pending += 1
            state.sequence += 1
            return state.sequence
        }
        guard let sequence else { return notWritten(.backlogFull, at: time) }
        let name = Self.fileName(ceremony, refusal: refusal, at: time, sequence: sequence)
        queue.async { [self] in
            store(make(name).serialized() + [UInt8(ascii: "\n")], name: name, at: time)
            state.withLock { $0.pending -= 1 }
        }
    }

    /// Waits until every queued recording is written, then logs the recordings not written that no line reported yet.
    package func drain() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { continuation.resume() }
        }
        if let counts = state.withLock({ $0.unwritten.takeUnreported() }) { report(counts) }
    }

    /// `20261202T041500.123Z-000042-authentication-refused-bad_signature`: sortable by time, unique in the process.
    package static func fileName(_ ceremony: String, refusal: WebAuthnError.Code?, at time: Date, sequence: Int)
        -> String
    {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withYear, .withMonth, .withDay, .withTime, .withFractionalSeconds, .withTimeZone]
        let stamp = formatter.string(from: time).replacingOccurrences(of: ":", with: "")
        let number = String(sequence)
        let padded = String(repeating: "0", count: max(0, 6 - number.count)) + number
        let outcome = refusal.map { "refused-\($0.rawValue)" } ?? "ok"
        return "\(stamp)-\(padded)-\(ceremony)-\(outcome)"
    }

    /// On the queue: writes one recording within the caps, deleting the oldest ones first when the directory would
    /// outgrow `maxBytes`.
    private func store(_ bytes: [UInt8], name: String, at time: Date) {
        // Checked before anything is deleted: an oversized recording never costs an older one.
        guard bytes.count <= maxFileBytes else { return notWritten(.tooLarge, at: time) }
        let (firstRotation, stuck) = files.withLock { files -> (Bool, (path: String, error: Int32)?) in
            var deleted = false
            var stuck: (path: String, error: Int32)?
            while files.index.totalBytes + bytes.count > maxBytes, let oldest = files.index.oldest {
                let path = (directory as NSString).appendingPathComponent(oldest.fileName)
                // Gone already (an operator cleaned up): it no longer takes space either.
                guard unlink(path) == 0 || errno == ENOENT else {
                    stuck = (path, errno)
                    break
                }
                files.index.removeOldest()
                deleted = true
            }
            let first = deleted && !files.rotationLogged
            if deleted { files.rotationLogged = true }
            return (first, stuck)
        }
        if firstRotation {
            logger.log(.info, "recording directory full: the oldest recordings are deleted from now on") { line in
                line.add("max_bytes", maxBytes)
            }
        }
        if let stuck {
            return failed(
                name,
                "cannot delete \(stuck.path) to stay within recording.max_bytes: "
                    + String(cString: strerror(stuck.error)))
        }
        guard write(bytes, name: name) else { return }
        files.withLock { _ = $0.index.insert(name + ".json", bytes: bytes.count) }
    }

    /// Counts a recording not written for `reason`, and logs the counts when a line is due.
    private func notWritten(_ reason: UnwrittenRecordings.Reason, at time: Date) {
        guard let counts = state.withLock({ $0.unwritten.count(reason, at: time) }) else { return }
        report(counts)
    }

    /// One line for the recordings not written since the previous one (no name, no content: nothing of a client's).
    private func report(_ counts: [UnwrittenRecordings.Reason: Int]) {
        logger.log(.warning, "recordings not written") { line in
            for reason in UnwrittenRecordings.Reason.allCases {
                if let count = counts[reason] { line.add(reason.rawValue, count) }
            }
            line.add("max_file_bytes", maxFileBytes)
            line.add("backlog_limit", Self.backlogLimit)
            line.add("counted", "since the previous such line, at most one a minute")
        }
    }

    /// Writes `bytes` to `name`.json as every secret file is written (`SecretFile.replace`: created 0600 under a
    /// `.partial` name, flushed, renamed, the directory flushed); a failure is logged.
    /// - Returns: whether the recording is on disk.
    private func write(_ bytes: [UInt8], name: String) -> Bool {
        let final = (directory as NSString).appendingPathComponent(name + ".json")
        do {
            // Names are unique (time and sequence number): nothing is replaced in fact.
            try SecretFile.replace(final, contents: bytes, through: final + ".partial")
            return true
        } catch {
            failed(name, error.description)
            return false
        }
    }

    /// Logs a recording not written, and why.
    private func failed(_ name: String, _ error: String) {
        logger.log(.error, "recording not written") { line in
            line.add("recording", name)
            line.add("error", error)
        }
    }

    private func failed(_ name: String, _ what: String, _ error: Int32) {
        logger.log(.error, "recording not written") { line in
            line.add("recording", name)
            line.add("error", "\(what): \(String(cString: strerror(error)))")
        }
    }
}
