import Foundation

/// Where a key is in an HSM reached through PKCS#11, and where its PIN comes from (never from the JSON file): the
/// `pkcs11` object of `audit` (the checkpoint signer) and of `encryption_at_rest` (the key that wraps the
/// key-encryption key).
public struct PKCS11Settings: Sendable, Equatable {
    /// The PKCS#11 module, loaded with dlopen.
    public var module: String
    public var tokenLabel: String
    public var keyLabel: String
    /// A file holding the PIN (trailing newline ignored), or
    public var pinFile: String?
    /// the name of an environment variable holding it,
    public var pinEnvironmentVariable: String?
    /// whose value the configuration loader took from the environment it was given (`readPIN(from:)`), so that
    /// nothing after the load reads the process environment; `nil` when the variable is not set.
    package var environmentPIN: RedactedPIN?

    /// A PIN that never shows in a description, a log line or a test failure.
    package struct RedactedPIN: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
        package let value: String
        package var description: String { "<redacted>" }
        package var debugDescription: String { "<redacted>" }
    }

    /// Reads a `pkcs11` object, whose settings `group` declares: `module`, `token_label`, `key_label`, and exactly one
    /// of `pin_file` and `pin_env`.
    package static func read(_ object: ConfigObject, _ group: Settings.PKCS11SettingGroup) throws(ConfigurationError)
        -> PKCS11Settings
    {
        let settings = PKCS11Settings(
            module: try object.value(group.module), tokenLabel: try object.value(group.tokenLabel),
            keyLabel: try object.value(group.keyLabel), pinFile: try object.value(group.pinFile),
            pinEnvironmentVariable: try object.value(group.pinEnvironmentVariable))
        guard (settings.pinFile == nil) != (settings.pinEnvironmentVariable == nil) else {
            throw object.error("pin_file", "give exactly one of pin_file and pin_env (never the PIN itself)")
        }
        try object.rejectUnknownKeys()
        return settings
    }

    /// Why the PIN could not be read.
    package struct PINFailure: Error, CustomStringConvertible {
        package let description: String
    }

    /// Takes the value of the variable `pinEnvironmentVariable` names from `environment` (the loader's).
    package mutating func readPIN(from environment: [String: String]) {
        environmentPIN = pinEnvironmentVariable.flatMap { environment[$0] }.map(RedactedPIN.init)
    }

    /// The PIN, from `pinFile` or from the variable `pinEnvironmentVariable` named when the configuration was loaded;
    /// `setting` names this object in errors (`audit.pkcs11`).
    package func pin(setting: String) throws(PINFailure) -> String {
        if let file = pinFile {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw PINFailure(description: "cannot read \(setting).pin_file \(file)")
            }
            return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
        }
        if pinEnvironmentVariable != nil, let pin = environmentPIN {
            return pin.value
        }
        throw PINFailure(description: "\(setting).pin_env names a variable that is not set")
    }
}
