extension ServerConfiguration.RecordingSettings {
    /// The smallest `recording.max_bytes`: 1 MiB, a few hundred recordings.
    package static let minimumMaxBytes = 1_048_576
    /// The smallest `recording.max_file_bytes`: 16 KiB, about the largest real ceremony (a SafetyNet sign-up).
    package static let minimumMaxFileBytes = 16_384

    /// Reads `recording` (docs/recording.md). Both caps are required to be real caps: record mode has no unlimited
    /// setting, and 0 does not mean one.
    package static func read(_ object: ConfigObject) throws(ConfigurationError) -> Self {
        let directory = try object.string("directory", default: "")
        let maxBytes = try Self.bytes(
            object, "max_bytes", default: CeremonyRecorder.defaultMaxBytes, minimum: minimumMaxBytes)
        let maxFileBytes = try Self.bytes(
            object, "max_file_bytes", default: CeremonyRecorder.defaultMaxFileBytes, minimum: minimumMaxFileBytes)
        guard maxFileBytes <= maxBytes else {
            throw object.error(
                "max_file_bytes", "must not exceed recording.max_bytes (\(maxBytes)), got \(maxFileBytes)")
        }
        try object.rejectUnknownKeys()
        return Self(directory: directory.isEmpty ? nil : directory, maxBytes: maxBytes, maxFileBytes: maxFileBytes)
    }

    /// A size in bytes of at least `minimum`, with a message that says why 0 or less is refused.
    private static func bytes(_ object: ConfigObject, _ key: String, default fallback: Int, minimum: Int)
        throws(ConfigurationError) -> Int
    {
        let value = try object.int(key, default: fallback, range: Int.min...Int.max)
        guard value > 0 else {
            throw object.error(
                key,
                "must be a positive number of bytes, got \(value): recordings always have a cap (to turn record "
                    + "mode off, leave recording.directory empty)")
        }
        guard value >= minimum else {
            throw object.error(key, "must be at least \(minimum) bytes, got \(value)")
        }
        return value
    }
}
