import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One server per data directory: an exclusive advisory lock (flock(2)) on `passkeyd.lock` in the data directory,
/// held from start to stop (and released by the kernel if the process dies). The holder writes its PID into the
/// file, so a second server refuses with one line naming the directory and the process holding it.
///
/// flock(2) locks belong to the open file description, so two acquisitions in one process conflict too.
/// `passkeyd keys rotate` does not take it: it is meant to run beside a running server (SQLite's own locking
/// serializes its one write, and the server picks the new key up on its next reload).
package final class DataDirectoryLock: Sendable {
    /// The lock file's name inside the data directory.
    package static let fileName = "passkeyd.lock"

    /// The lock file's path.
    package let path: String
    /// The open descriptor holding the lock; `nil` once released.
    private let descriptor: Mutex<Int32?>

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = Mutex(descriptor)
    }

    deinit {
        release()
    }

    /// Takes the lock of `directory` (created with mode 0700 if missing), without waiting.
    /// - Throws: `StartError` naming the directory and, when it can be read, the holder's PID.
    package static func acquire(directory: String) throws(StartError) -> DataDirectoryLock {
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw StartError(description: "cannot create the data directory \(directory): \(error)")
        }
        let path = (directory as NSString).appendingPathComponent(fileName)
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw StartError(
                description: "cannot open the lock file \(path): \(String(cString: strerror(errno)))")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let reason = errno
            close(fd)
            guard reason == EWOULDBLOCK else {
                throw StartError(
                    description: "cannot lock \(path): \(String(cString: strerror(reason)))")
            }
            throw StartError(
                description: "data directory \(directory) is in use by another passkeyd (\(holder(of: path))); "
                    + "stop it first, or give this one another data_directory")
        }
        let pid = Array("\(getpid())\n".utf8)
        let written = pid.withUnsafeBytes { bytes in pwrite(fd, bytes.baseAddress, bytes.count, 0) }
        if ftruncate(fd, off_t(pid.count)) != 0 || written != pid.count {
            // The lock holds without the PID; a second server then says the holder is unknown.
            _ = ftruncate(fd, 0)
        }
        return DataDirectoryLock(path: path, descriptor: fd)
    }

    /// Releases the lock (closing the descriptor releases it). Idempotent. The file stays: removing it would let
    /// a third process lock a new file while a second still waits on the old one.
    package func release() {
        descriptor.withLock { descriptor in
            if let fd = descriptor { close(fd) }
            descriptor = nil
        }
    }

    /// "pid N" from the lock file, or words saying it is unknown.
    private static func holder(of path: String) -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
            let pid = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else { return "pid unknown" }
        return "pid \(pid)"
    }
}
