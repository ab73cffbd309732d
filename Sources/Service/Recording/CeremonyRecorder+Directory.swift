import Configuration
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension CeremonyRecorder {
    /// The default of `recording.max_bytes` (the settings table's).
    public static let defaultMaxBytes = Settings.Recording.maxBytes.defaultValue
    /// The default of `recording.max_file_bytes` (the settings table's).
    public static let defaultMaxFileBytes = Settings.Recording.maxFileBytes.defaultValue

    /// Prepares `directory`: created 0700 when missing; an existing one must be a directory owned by this process's
    /// user, with no permission for group or others, and writable. Its recordings are counted once, here; the
    /// `.partial` files a crash left are deleted; when the recordings weigh more than `maxBytes` (a cap lowered since
    /// the last run), the oldest are deleted now.
    /// - Throws: `StartError` with one line saying what is wrong and how to fix it.
    public static func open(
        directory: String, maxBytes: Int = defaultMaxBytes, maxFileBytes: Int = defaultMaxFileBytes, logger: Logger
    ) throws(StartError) -> CeremonyRecorder {
        try prepare(directory)
        var index = try scan(directory)
        var deleted = 0
        while index.totalBytes > maxBytes, let oldest = index.oldest {
            let path = (directory as NSString).appendingPathComponent(oldest.fileName)
            guard unlink(path) == 0 || errno == ENOENT else {
                throw StartError(
                    description: "recording directory \(directory) holds more than recording.max_bytes (\(maxBytes)) "
                        + "and \(path) cannot be deleted: \(String(cString: strerror(errno)))")
            }
            index.removeOldest()
            deleted += 1
        }
        if deleted > 0 {
            logger.log(.info, "recording directory over recording.max_bytes: the oldest recordings were deleted") {
                line in
                line.add("deleted", deleted)
                line.add("max_bytes", maxBytes)
            }
        }
        return CeremonyRecorder(
            directory: directory, maxBytes: maxBytes, maxFileBytes: maxFileBytes, index: index, logger: logger)
    }

    /// Creates `directory` 0700 when missing, else checks that it is the server's own private, writable directory.
    private static func prepare(_ directory: String) throws(StartError) {
        var status = stat()
        if lstat(directory, &status) != 0 {
            guard errno == ENOENT else {
                throw StartError(
                    description: "recording directory \(directory): \(String(cString: strerror(errno)))")
            }
            do {
                try FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw StartError(
                    description: "cannot create the recording directory \(directory): \(error)")
            }
            guard lstat(directory, &status) == 0 else {
                throw StartError(
                    description: "recording directory \(directory): \(String(cString: strerror(errno)))")
            }
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw StartError(
                description: "recording directory \(directory) is not a directory (a symbolic link is refused)")
        }
        guard status.st_uid == geteuid() else {
            throw StartError(
                description: "recording directory \(directory) belongs to uid \(status.st_uid), not to passkeyd's "
                    + "uid \(geteuid())")
        }
        let mode = status.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw StartError(
                description: "recording directory \(directory) has mode 0\(String(mode, radix: 8)); recordings "
                    + "must not be readable by others: chmod 700 \(directory)")
        }
        guard access(directory, W_OK | X_OK) == 0 else {
            throw StartError(
                description: "recording directory \(directory) is not writable: \(String(cString: strerror(errno)))")
        }
    }

    /// The recordings in `directory` (regular files named as the recorder names them; every other file is left
    /// alone and not counted), read once at start. Deletes the `.partial` files of recordings a crash left half
    /// written.
    private static func scan(_ directory: String) throws(StartError) -> RecordingIndex {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw StartError(description: "cannot list the recording directory \(directory): \(error)")
        }
        var files: [(fileName: String, bytes: Int)] = []
        for name in names {
            let path = (directory as NSString).appendingPathComponent(name)
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            if name.hasSuffix(".json.partial") {
                if RecordingIndex.parse(String(name.dropLast(".partial".count))) != nil { unlink(path) }
                continue
            }
            files.append((name, Int(status.st_size)))
        }
        return RecordingIndex(files)
    }
}
