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
}
