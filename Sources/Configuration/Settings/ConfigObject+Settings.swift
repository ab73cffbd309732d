extension ConfigObject {
    /// The member of this object that `setting` names. Reading a setting through an object of another section is a
    /// programmer error (the table and the reader disagree), never something input can reach.
    private func member(_ setting: SettingDescriptor) -> String {
        precondition(setting.section == path, "\(setting.key) is not a setting of \(path.isEmpty ? "the root" : path)")
        return setting.name
    }

    /// The integer `setting` names, its default when absent; refused outside its range.
    package func value(_ setting: IntegerSetting) throws(ConfigurationError) -> Int {
        try int(member(setting.descriptor), default: setting.defaultValue, range: setting.range)
    }

    /// The boolean `setting` names, its default when absent.
    package func value(_ setting: BooleanSetting) throws(ConfigurationError) -> Bool {
        try bool(member(setting.descriptor), default: setting.defaultValue)
    }

    /// The string `setting` names, its default when absent ("is required" when it has none).
    package func value(_ setting: TextSetting) throws(ConfigurationError) -> String {
        let key = member(setting.descriptor)
        let text = try string(key, default: setting.defaultValue)
        guard setting.allowsEmpty || !text.isEmpty else { throw error(key, "must not be empty") }
        return text
    }

    /// The string `setting` names, `nil` when absent.
    package func value(_ setting: OptionalTextSetting) throws(ConfigurationError) -> String? {
        try optionalString(member(setting.descriptor))
    }

    /// The choice `setting` names, its default when absent; any other spelling is refused, naming the choices.
    package func value<Choice>(_ setting: ChoiceSetting<Choice>) throws(ConfigurationError) -> Choice {
        let key = member(setting.descriptor)
        guard let text = try optionalString(key) else { return setting.defaultValue }
        guard let choice = setting.choice(text) else { throw error(key, "\(setting.expectation), got \"\(text)\"") }
        return choice
    }

    /// The strings `setting` names, none when absent.
    package func value(_ setting: ListSetting) throws(ConfigurationError) -> [String] {
        try stringArray(member(setting.descriptor))
    }

    /// The objects `setting` names, none when absent; a required list must hold at least one.
    package func value(_ setting: RecordsSetting) throws(ConfigurationError) -> [ConfigObject] {
        let key = member(setting.descriptor)
        let records = try objectArray(key)
        if let record = setting.requiredRecord, records.isEmpty {
            throw error(key, "at least one \(record) is required")
        }
        return records
    }

    /// The object of the section `name` (`http`), empty when absent.
    package func section(_ name: String) throws(ConfigurationError) -> ConfigObject {
        try object(name) ?? child([:], path: path.isEmpty ? name : "\(path).\(name)")
    }
}
