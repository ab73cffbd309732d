import Audit
import Configuration
import Crypto
import Foundation
import PKCS11Signer

/// Builds the checkpoint signer `audit.signer` names: none, a key file (generated on first use, mode 0600), or a
/// key in an HSM through PKCS#11 (PIN from a file or an environment variable).
package enum AuditSignerLoader {
    /// Why the signer could not be set up.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    package static func load(_ configuration: AuditConfiguration) throws -> (any NoteSigner)? {
        switch configuration.signer {
        case .none:
            return nil
        case .file(let path):
            return try SoftwareNoteSigner(name: configuration.origin, key: try fileKey(path))
        case .pkcs11(let settings):
            let pin = try settings.pin(setting: "audit.pkcs11")
            return try PKCS11NoteSigner(name: configuration.origin, location: settings.location, pin: pin)
        }
    }

    /// The Ed25519 seed in `path` (32 raw bytes), generated when the file does not exist and written as every secret
    /// file is (`SecretFile`: a new file, mode 0600, flushed with its directory).
    package static func fileKey(_ path: String) throws -> Ed25519SigningKey {
        if !FileManager.default.fileExists(atPath: path) {
            let key = try Ed25519SigningKey()
            do {
                try SecretFile.create(path, contents: key.rawRepresentation)
            } catch {
                throw Failure(description: "cannot create the audit key file: \(error)")
            }
            return key
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(description: "cannot read the audit key file \(path)")
        }
        return try Ed25519SigningKey(rawRepresentation: Array(data))
    }
}
