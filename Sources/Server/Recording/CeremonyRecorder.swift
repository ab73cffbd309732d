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
/// that fails is logged, never answered. At most `backlogLimit` recordings wait; beyond that a recording is
/// dropped (and logged) rather than held in memory without bound. `drain()` waits for the queue at stop, so every
/// ceremony answered before the stop is on disk when the server exits.
///
/// Files are created 0600 (O_EXCL, O_NOFOLLOW) in a directory that must be 0700 and the server's own; each is
/// written under a `.partial` name and renamed, so `passkeyd replay` never reads half a recording.
public final class CeremonyRecorder: Sendable {
    /// Recordings that may wait for the disk before new ones are dropped.
    static let backlogLimit = 256

    /// The directory written to.
    public let directory: String
    private let logger: Logger
    private let queue = DispatchQueue(label: "passkeyd.ceremony-recorder")
    /// Recordings queued and not yet written, and the sequence number of the last one named.
    private let state = Mutex<(pending: Int, sequence: Int)>((0, 0))

    private init(directory: String, logger: Logger) {
        self.directory = directory
        self.logger = logger
    }

    /// Prepares `directory`: created 0700 when missing; an existing one must be a directory owned by this process's
    /// user, with no permission for group or others, and writable.
    /// - Throws: `PasskeydServer.StartError` with one line saying what is wrong and how to fix it.
    public static func open(directory: String, logger: Logger) throws(PasskeydServer.StartError) -> CeremonyRecorder {
        var status = stat()
        if lstat(directory, &status) != 0 {
            guard errno == ENOENT else {
                throw PasskeydServer.StartError(
                    description: "recording directory \(directory): \(String(cString: strerror(errno)))")
            }
            do {
                try FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw PasskeydServer.StartError(
                    description: "cannot create the recording directory \(directory): \(error)")
            }
            guard lstat(directory, &status) == 0 else {
                throw PasskeydServer.StartError(
                    description: "recording directory \(directory): \(String(cString: strerror(errno)))")
            }
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw PasskeydServer.StartError(
                description: "recording directory \(directory) is not a directory (a symbolic link is refused)")
        }
        guard status.st_uid == geteuid() else {
            throw PasskeydServer.StartError(
                description: "recording directory \(directory) belongs to uid \(status.st_uid), not to passkeyd's "
                    + "uid \(geteuid())")
        }
        let mode = status.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw PasskeydServer.StartError(
                description: "recording directory \(directory) has mode 0\(String(mode, radix: 8)); recordings "
                    + "must not be readable by others: chmod 700 \(directory)")
        }
        guard access(directory, W_OK | X_OK) == 0 else {
            throw PasskeydServer.StartError(
                description: "recording directory \(directory) is not writable: \(String(cString: strerror(errno)))")
        }
        return CeremonyRecorder(directory: directory, logger: logger)
    }

    /// Queues one recording of a ceremony judged at `time`, named by time and outcome; never blocks, never throws.
    /// `make` builds the recording's JSON from its name, on the queue.
    func record(
        _ ceremony: String, refusal: WebAuthnError.Code?, at time: Date,
        make: @escaping @Sendable (String) -> JSONValue
    ) {
        let sequence: Int? = state.withLock { state in
            guard state.pending < Self.backlogLimit else { return nil }
            state.pending += 1
            state.sequence += 1
            return state.sequence
        }
        guard let sequence else {
            logger.log(.warning, "recording dropped") { line in
                line.add("ceremony", ceremony)
                line.add("reason", "\(Self.backlogLimit) recordings already wait for the disk")
            }
            return
        }
        let name = Self.fileName(ceremony, refusal: refusal, at: time, sequence: sequence)
        queue.async { [self] in
            write(make(name).serialized() + [UInt8(ascii: "\n")], name: name)
            state.withLock { $0.pending -= 1 }
        }
    }

    /// Waits until every queued recording is written.
    func drain() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { continuation.resume() }
        }
    }

    /// `20261202T041500.123Z-000042-authentication-refused-bad_signature`: sortable by time, unique in the process.
    static func fileName(_ ceremony: String, refusal: WebAuthnError.Code?, at time: Date, sequence: Int) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withYear, .withMonth, .withDay, .withTime, .withFractionalSeconds, .withTimeZone]
        let stamp = formatter.string(from: time).replacingOccurrences(of: ":", with: "")
        let number = String(sequence)
        let padded = String(repeating: "0", count: max(0, 6 - number.count)) + number
        let outcome = refusal.map { "refused-\($0.rawValue)" } ?? "ok"
        return "\(stamp)-\(padded)-\(ceremony)-\(outcome)"
    }

    /// Writes `bytes` to `name`.json (created 0600 under a `.partial` name, then renamed); a failure is logged.
    private func write(_ bytes: [UInt8], name: String) {
        let final = (directory as NSString).appendingPathComponent(name + ".json")
        let partial = final + ".partial"
        let fd = Glibc.open(partial, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return failed(name, "cannot create \(partial)", errno) }
        var offset = 0
        var error: Int32 = 0
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            while offset < buffer.count {
                let written = Glibc.write(fd, base + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else {
                    error = written < 0 ? errno : EIO
                    return
                }
                offset += written
            }
        }
        if close(fd) != 0 && error == 0 { error = errno }
        guard error == 0 else {
            unlink(partial)
            return failed(name, "cannot write \(partial)", error)
        }
        guard rename(partial, final) == 0 else {
            let reason = errno
            unlink(partial)
            return failed(name, "cannot rename \(partial)", reason)
        }
    }

    private func failed(_ name: String, _ what: String, _ error: Int32) {
        logger.log(.error, "recording not written") { line in
            line.add("recording", name)
            line.add("error", "\(what): \(String(cString: strerror(error)))")
        }
    }
}
