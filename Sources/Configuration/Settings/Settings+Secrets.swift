extension Settings {
    /// `encryption_at_rest`: the key-encryption keys of secrets in the database (docs/api.md, "Secrets at rest").
    package enum EncryptionAtRest {
        package static let keyFile = OptionalTextSetting(
            "encryption_at_rest.key_file",
            doc: """
                a file of 32 random bytes (`openssl rand -out FILE 32`; owned by the server's user with mode 0600, or \
                by root with 0640 as in "Installing as a service"; relative paths from the data directory) under \
                which passkeyd's secrets are encrypted in the database (AES-256-GCM): the token-signing keys, the \
                password verifiers, the SRP logins' server secrets and the key of the audit log's identity \
                pseudonyms, so a database backup, replica or read-only account can neither mint tokens, nor finish an \
                SRP login, nor start a dictionary attack on a password; keys and verifiers stored before are \
                encrypted at the next start. Every node and `passkeyd keys rotate` need the same file; a server \
                refuses to start on keys it cannot decrypt. Unset: they are stored unencrypted and the start logs a \
                warning. docs/api.md, "Secrets at rest"
                """)
        /// The HSM key that wraps the key files.
        package static let pkcs11 = PKCS11SettingGroup(
            section: "encryption_at_rest.pkcs11", required: "unset",
            module: """
                an AES-256 secret key in an HSM (PKCS#11) that wraps the key files (`passkeyd encryption-key wrap`): \
                each node unwraps them once at start, and a file alone (a backup, a disk image) opens nothing. With \
                it every key file must be wrapped, without it none may be. This is the PKCS#11 module, loaded with \
                dlopen; the token, key and PIN settings below are then required as for `audit.pkcs11`. Needs \
                `encryption_at_rest.key_file`
                """,
            key: "the label of the AES-256 secret key on the token")
        package static let decryptionKeyFiles = ListSetting(
            "encryption_at_rest.decryption_key_files",
            doc: """
                further key files that open secrets but never seal one, to rotate the key-encryption key node by node \
                (docs/api.md); what they sealed is sealed again under `key_file` at the next start; refused without \
                `key_file`
                """)

        static let all = [keyFile.descriptor] + pkcs11.all + [decryptionKeyFiles.descriptor]
    }

    /// The `pkcs11` object of `audit` and of `encryption_at_rest` (`PKCS11Settings`): the same members, each
    /// section's own keys and variables.
    package struct PKCS11SettingGroup: Sendable {
        package let module: TextSetting
        package let tokenLabel: TextSetting
        package let keyLabel: TextSetting
        package let pinFile: OptionalTextSetting
        package let pinEnvironmentVariable: OptionalTextSetting

        /// `required` is the README's default of the three required members; `module` and `key` document them.
        init(section: String, required: String, module: String, key: String) {
            self.module = TextSetting("\(section).module", default: nil, required: required, doc: module)
            tokenLabel = TextSetting(
                "\(section).token_label", default: nil, required: required, doc: "the label of the token")
            keyLabel = TextSetting("\(section).key_label", default: nil, required: required, doc: key)
            pinFile = OptionalTextSetting(
                "\(section).pin_file",
                doc: "a file holding the user PIN; exactly one of `pin_file` and `pin_env` (never the PIN itself)")
            pinEnvironmentVariable = OptionalTextSetting(
                "\(section).pin_env",
                doc: "the name of an environment variable holding the user PIN; exactly one of `pin_file` and `pin_env`"
            )
        }

        var all: [SettingDescriptor] {
            [
                module.descriptor, tokenLabel.descriptor, keyLabel.descriptor, pinFile.descriptor,
                pinEnvironmentVariable.descriptor,
            ]
        }
    }
}
