extension ServerConfiguration.RecordingSettings {
    /// Reads `recording` (docs/recording.md). Both caps are required to be real caps: record mode has no unlimited
    /// setting, and 0 does not mean one.
    package static func read(_ object: ConfigObject) throws(ConfigurationError) -> Self {
        let directory = try object.value(Settings.Recording.directory)
        let maxBytes = try Self.bytes(object, Settings.Recording.maxBytes)
        let maxFileBytes = try Self.bytes(object, Settings.Recording.maxFileBytes)
        guard maxFileBytes <= maxBytes else {
            throw object.error(
                "max_file_bytes", "must not exceed recording.max_bytes (\(maxBytes)), got \(maxFileBytes)")
        }
        try object.rejectUnknownKeys()
        return Self(directory: directory.isEmpty ? nil : directory, maxBytes: maxBytes, maxFileBytes: maxFileBytes)
    }

    /// A size in bytes within `setting`'s range (at least its minimum), with a message that says why 0 or less is
    /// refused.
    private static func bytes(_ object: ConfigObject, _ setting: IntegerSetting) throws(ConfigurationError) -> Int {
        let key = setting.descriptor.name
        let value = try object.int(key, default: setting.defaultValue, range: Int.min...Int.max)
        guard value > 0 else {
            throw object.error(
                key,
                "must be a positive number of bytes, got \(value): recordings always have a cap (to turn record "
                    + "mode off, leave recording.directory empty)")
        }
        guard setting.range.contains(value) else {
            throw object.error(key, "must be at least \(setting.range.lowerBound) bytes, got \(value)")
        }
        return value
    }
}
