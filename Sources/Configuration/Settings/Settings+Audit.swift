extension Settings {
    /// `audit`: the probative audit log (docs/audit.md).
    package enum Audit {
        package static let signer = ChoiceSetting<AuditConfiguration.SignerKind>(
            "audit.signer", default: .none,
            doc: """
                who signs the audit log's checkpoints (docs/audit.md): `pkcs11` (an Ed25519 key in an HSM), `file` (a \
                software key, logged at start as not HSM-backed), `none` (entries are still appended, no checkpoint \
                is signed)
                """)
        /// With `signer: "pkcs11"`: where the key is and where its PIN comes from.
        package static let pkcs11 = PKCS11SettingGroup(
            section: "audit.pkcs11", required: "required with `audit.signer` `pkcs11`",
            module: "the PKCS#11 module, loaded with dlopen (e.g. `/usr/lib/softhsm/libsofthsm2.so`)",
            key: "the label of the Ed25519 key pair on the token")
        package static let keyFile = TextSetting(
            "audit.key_file", default: "audit-signing.key",
            doc: """
                with `signer: "file"`: the 32-byte Ed25519 seed, relative to the data directory, generated (mode \
                0600) on first start; several nodes on one PostgreSQL need the same file (one log, one key: a node \
                whose key did not sign the latest checkpoint logs an error at start)
                """)
        /// Absent: `<relying_party.id>/passkeyd-audit` (`AuditConfiguration.read`).
        package static let origin = OptionalTextSetting(
            "audit.origin", absent: "`<relying_party.id>/passkeyd-audit`",
            doc: "the checkpoints' origin line and the signed-note key name (no space, no `+`)")
        package static let checkpointIntervalMilliseconds = IntegerSetting(
            "audit.checkpoint_interval_ms", default: 1_000, range: 100...3_600_000,
            doc: "a checkpoint is signed at most this often, when the tree grew")
        package static let sequenceIntervalMilliseconds = IntegerSetting(
            "audit.sequence_interval_ms", default: 100, range: 10...60_000,
            doc: "how often queued events are sequenced into the log")
        /// Absent: the host name (`AuditConfiguration.read`).
        package static let nodeID = OptionalTextSetting(
            "audit.node_id", absent: "the host name", doc: "this node's id in the entries it records")
        package static let clientAddress = ChoiceSetting<ClientAddressRecording>(
            "audit.client_address", default: .full,
            doc: """
                what the permanent log's entries keep of the client's address: `full`, `network` (IPv4 /24, IPv6 /48) \
                or `none`; the same on every node (docs/audit.md, "Addresses in the log")
                """)
        package static let eventRetentionDays = IntegerSetting(
            "audit.event_retention_days", default: 0, range: 0...36_500, note: "(forever)",
            doc: """
                how long security events stay in the `security_events` table (a user's device-key `history`, the \
                device-key checks that read it); housekeeping deletes older ones once the audit log holds them, up to \
                500,000 a minute. The audit log keeps every event regardless (docs/audit.md, "Retention")
                """)

        static let all =
            [signer.descriptor] + pkcs11.all + [
                keyFile.descriptor, origin.descriptor, checkpointIntervalMilliseconds.descriptor,
                sequenceIntervalMilliseconds.descriptor, nodeID.descriptor, clientAddress.descriptor,
                eventRetentionDays.descriptor,
            ]
    }

    /// `recording`: record mode (docs/recording.md).
    package enum Recording {
        package static let directory = TextSetting(
            "recording.directory", default: "", flag: "--record", note: "(off)",
            doc: """
                record mode: every WebAuthn ceremony judged is written there as a replayable recording \
                ([docs/recording.md](docs/recording.md)); created 0700 when missing; an existing directory with \
                permissions for group or others, of another owner, or not writable stops the start. For test and \
                staging servers
                """)
        /// Read by `RecordingSettings.read`, which says why 0 or less is refused (record mode has no unlimited
        /// setting).
        package static let maxBytes = IntegerSetting(
            "recording.max_bytes", default: 1_073_741_824, range: 1_048_576...Int.max, note: "(1 GiB)",
            doc: """
                the most the directory's recordings weigh together: before each write the oldest recordings (by the \
                time in their names) are deleted to stay within it; other files in the directory are neither counted \
                nor deleted. 0 or less stops the start (record mode has no unlimited setting)
                """)
        /// 64 KiB: four times the largest ceremony of `Fixtures/ceremonies` (an Android SafetyNet sign-up with its
        /// certificate chain, 16 KB); at least 16 KiB, about that largest real ceremony.
        package static let maxFileBytes = IntegerSetting(
            "recording.max_file_bytes", default: 65_536, range: 16_384...Int.max, note: "(64 KiB)",
            doc: """
                the most one recording weighs: a larger one is not written (its ceremony is answered as usual) and \
                counted in a `recordings not written` warning, at most one a minute. At most `recording.max_bytes`
                """)

        static let all = [directory.descriptor, maxBytes.descriptor, maxFileBytes.descriptor]
    }
}
