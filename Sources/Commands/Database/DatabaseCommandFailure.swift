import Configuration
import Foundation
import Service

/// Why a `passkeyd database …` command (copy, backup, restore) was refused or failed, in one line.
public struct DatabaseCommandFailure: Error, CustomStringConvertible, Sendable {
    public let description: String

    package init(_ description: String) {
        self.description = description
    }

    /// The SQLite database file of `configuration`, which must exist; `otherwise` is the refusal when the
    /// configuration names PostgreSQL.
    package static func sqliteFile(_ configuration: ServerConfiguration, otherwise: String)
        throws(DatabaseCommandFailure)
        -> String
    {
        guard let file = configuration.sqliteFile else { throw DatabaseCommandFailure(otherwise) }
        guard FileManager.default.fileExists(atPath: file) else {
            throw DatabaseCommandFailure("there is no SQLite database at \(file)")
        }
        return file
    }

    /// The data directory's lock (`serve` holds it), for commands that no server may run beside.
    package static func lockDataDirectory(_ configuration: ServerConfiguration) throws(DatabaseCommandFailure)
        -> DataDirectoryLock
    {
        do {
            return try DataDirectoryLock.acquire(directory: configuration.dataDirectory)
        } catch {
            throw DatabaseCommandFailure(error.description)
        }
    }
}
