import Foundation
import Service

/// `passkeyd encryption-key wrap`: wraps the configuration's key-encryption key files in place under the HSM key
/// `encryption_at_rest.pkcs11` names (`KeyEncryptionKeyWrapping`); prints one line per file, what became of it.
package struct EncryptionKeyWrapCommand: Command, Equatable {
    package static let words = ["encryption-key", "wrap"]
    package static let flags: [any Flag] = ConfigurationOptions.flags
    package static let summary = """
        Wrap encryption_at_rest.key_file and decryption_key_files, in place, under the HSM key
        encryption_at_rest.pkcs11 names (the keys do not change; the files alone then open nothing).
        """

    package var configuration: ConfigurationOptions

    package init(configuration: ConfigurationOptions = ConfigurationOptions()) {
        self.configuration = configuration
    }

    package init(_ arguments: ParsedArguments) {
        self.init(configuration: ConfigurationOptions(arguments))
    }

    package func run(_ context: CommandContext) async throws(CommandFailure) -> Int32 {
        let configuration = try configuration.load(context.environment)
        do {
            for outcome in try KeyEncryptionKeyWrapping.run(configuration) {
                context.output(outcome.description)
            }
        } catch {
            throw CommandFailure("encryption-key wrap failed: \(error)")
        }
        return 0
    }
}
