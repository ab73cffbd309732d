import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The one way passkeyd writes a secret to disk: the audit signing key (`audit.key_file`), the ceremony recordings
/// (record mode) and the key-encryption key files `passkeyd encryption-key wrap` rewrites.
///
/// A new file is opened `O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC`: it never overwrites a file and never follows a
/// symbolic link planted at its name. It has mode 0600 from its first byte whatever the umask (the umask can only
/// take bits away from 0600; `fchmod` then sets exactly 0600 before any byte is written). Every byte is written
/// (short writes and `EINTR` retried), the file is flushed (`fsync`) and closed, and then its directory is flushed,
/// so that the file's name survives a power loss as well as its bytes.
///
/// `replace` writes a temporary file that way and renames it over the file: a reader, or the file after a crash,
/// has the old content or the new, never a mix.
package enum SecretFile {
    /// Creates the file `path` holding `contents`.
    /// - Throws: `Failure` (`EEXIST` when anything is at `path` already, a symbolic link included); a file this call
    ///   created is removed again when a later step fails.
    package static func create(_ path: String, contents: [UInt8]) throws(Failure) {
        let descriptor = try openNew(path)
        do {
            try write(contents, to: descriptor, path: path)
            try flushAndClose(descriptor, path: path)
        } catch {
            unlink(path)
            throw error
        }
        try flushDirectory(of: path)
    }

    /// Puts `contents` at `path` atomically, replacing what is there: written to the new file `temporary` (beside
    /// `path`, on the same file system; it must not exist) as `create` writes, renamed over `path`, and the directory
    /// flushed.
    /// - Parameter keepingAttributes: give the new file the owner, group and mode of the file it replaces (which
    ///   must exist) rather than 0600 and this process's user; fails when they cannot be kept.
    /// - Throws: `Failure`; `path` is unchanged and `temporary` removed when a step before the rename fails.
    package static func replace(
        _ path: String, contents: [UInt8], through temporary: String, keepingAttributes: Bool = false
    ) throws(Failure) {
        var existing = stat()
        if keepingAttributes {
            guard stat(path, &existing) == 0 else { throw Failure(.readAttributes, path, errno) }
        }
        let descriptor = try openNew(temporary)
        do {
            try write(contents, to: descriptor, path: temporary)
            if keepingAttributes { try keepAttributes(existing, on: descriptor, path: temporary) }
            try flushAndClose(descriptor, path: temporary)
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let failure = Failure(.rename, temporary, errno)
            unlink(temporary)
            throw failure
        }
        try flushDirectory(of: path)
    }

    /// A new file at `path`, open for writing, mode exactly 0600.
    private static func openNew(_ path: String) throws(Failure) -> Int32 {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure(.create, path, errno) }
        // The umask may have taken bits from 0600 (a file the server could not read back).
        guard fchmod(descriptor, 0o600) == 0 else {
            let failure = Failure(.create, path, errno)
            close(descriptor)
            unlink(path)
            throw failure
        }
        return descriptor
    }

    /// Writes every byte of `contents` at the descriptor's offset; closes the descriptor when it fails.
    private static func write(_ contents: [UInt8], to descriptor: Int32, path: String) throws(Failure) {
        var code: Int32 = 0
        contents.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else {
                    // write(2) returns 0 only for a zero count; treated as an I/O error rather than looping.
                    code = written < 0 ? errno : EIO
                    return
                }
                offset += written
            }
        }
        guard code == 0 else {
            close(descriptor)
            throw Failure(.write, path, code)
        }
    }

    /// Gives the file open at `descriptor` the owner, group and mode `existing` has; closes it when they differ.
    private static func keepAttributes(_ existing: stat, on descriptor: Int32, path: String) throws(Failure) {
        // The results are checked below, on what the file has (a chown to one's own user and group is allowed).
        _ = fchown(descriptor, existing.st_uid, existing.st_gid)
        _ = fchmod(descriptor, existing.st_mode & 0o777)
        var created = stat()
        guard fstat(descriptor, &created) == 0 else {
            let failure = Failure(.keepAttributes, path, errno)
            close(descriptor)
            throw failure
        }
        guard
            created.st_uid == existing.st_uid && created.st_gid == existing.st_gid
                && created.st_mode & 0o777 == existing.st_mode & 0o777
        else {
            close(descriptor)
            throw Failure(.keepAttributes, path, EPERM)
        }
    }

    /// fsync(2) then close(2); the descriptor is closed whatever happens.
    private static func flushAndClose(_ descriptor: Int32, path: String) throws(Failure) {
        guard fsync(descriptor) == 0 else {
            let failure = Failure(.flush, path, errno)
            close(descriptor)
            throw failure
        }
        // Linux closes the descriptor even when close(2) fails (EINTR included): never retried.
        guard close(descriptor) == 0 else { throw Failure(.close, path, errno) }
    }

    /// fsync(2) of the directory holding `path`: a new or renamed name is durable only then.
    private static func flushDirectory(of path: String) throws(Failure) {
        let parent = (path as NSString).deletingLastPathComponent
        let directory = parent.isEmpty ? "." : parent
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(.flushDirectory, directory, errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw Failure(.flushDirectory, directory, errno) }
    }
}
