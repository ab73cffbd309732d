/// How severe a log line is; `log_level` names the least severe one written (`Logger.Level`).
public enum LogLevel: Int, Sendable, Comparable, CaseIterable, SettingChoice {
    case debug, info, warning, error
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
    /// The level's name in a log line.
    package var name: String { ["debug", "info", "warning", "error"][rawValue] }
    /// How `log_level` spells it.
    package var settingName: String { name }
}
