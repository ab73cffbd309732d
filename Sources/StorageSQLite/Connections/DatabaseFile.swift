import Foundation
import Storage

/// Creates the database directory (0700) and file (0600) before SQLite opens it, so the database, and the
/// `-wal`/`-shm` files SQLite creates with the main file's mode, are readable by the service user only.
enum DatabaseFile {
    static func prepare(_ configuration: SQLiteConfiguration) throws(StorageError) {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: configuration.directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw StorageError(.invalidConfiguration, "\(configuration.directory) exists and is not a directory")
            }
        } else {
            do {
                try manager.createDirectory(
                    atPath: configuration.directory, withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
            } catch {
                throw StorageError(.io, "cannot create \(configuration.directory): \(error)")
            }
        }
        guard !manager.fileExists(atPath: configuration.path) else { return }
        guard manager.createFile(atPath: configuration.path, contents: nil, attributes: [.posixPermissions: 0o600])
        else { throw StorageError(.io, "cannot create \(configuration.path)") }
    }

    /// The bytes an unprivileged process may still write on the volume holding `directory` (`statvfs(3)`'s
    /// `f_bavail × f_frsize`); nil if it cannot be asked.
    static func availableBytes(in directory: String) -> Int? {
        var volume = statvfs()
        guard statvfs(directory, &volume) == 0 else { return nil }
        let (bytes, overflow) = Int(volume.f_bavail).multipliedReportingOverflow(by: Int(volume.f_frsize))
        return overflow ? Int.max : bytes
    }
}
