import JSON
import Storage

/// What the table says of one setting, whatever its type: the dotted key of the file, the environment variable
/// derived from it, how that variable's text is read, and the README row's default and meaning. Every typed setting
/// (`IntegerSetting`, `TextSetting`, …) carries one; `Settings.all` lists them, and the environment overrides, the
/// README table and its test come from that list.
package struct SettingDescriptor: Sendable, Equatable {
    /// How the environment variable's text is read.
    package enum Form: Sendable, Equatable {
        /// As it is.
        case text
        /// As a decimal integer.
        case integer
        /// `true`/`false` (`1`/`0`, `yes`/`no`).
        case boolean
        /// As JSON text (lists and lists of objects).
        case json
    }

    /// The dotted path in the file: `http.max_body_bytes`.
    package let key: String
    package let form: Form
    /// The value when the setting is left out, as the file would write it; `nil` when there is none to write
    /// (required, unset, or derived from other settings: `absent` says which).
    package let defaultValue: JSONValue?
    /// The README's default column when there is no `defaultValue`: "required", "unset", "the host name", ….
    package let absent: String
    /// Said after the default in the README: `(1 GiB)`, `(off)`.
    package let note: String?
    /// The README's meaning column (Markdown, one line), the accepted range included.
    package let meaning: String
    /// The command-line flag that sets it too (`--port`), if any.
    package let flag: String?

    package init(
        key: String, form: Form, defaultValue: JSONValue?, absent: String = "required", note: String? = nil,
        meaning: String, flag: String? = nil
    ) {
        self.key = key
        self.form = form
        self.defaultValue = defaultValue
        self.absent = absent
        self.note = note
        self.meaning = meaning
        self.flag = flag
    }

    /// The README's default column (Markdown): the value in code type (`65536`; "empty" for the empty string), or
    /// `absent`, then `note`.
    package var defaultText: String {
        let shown: String
        switch defaultValue {
        case .string(let text)?: shown = text.isEmpty ? "empty" : "`\(text)`"
        case .number(let text)?: shown = "`\(text)`"
        case .bool(let flag)?: shown = "`\(flag)`"
        case .array(let elements)? where elements.isEmpty: shown = "`[]`"
        case let value?: shown = "`\(value)`"
        case nil: shown = absent
        }
        return shown + (note.map { " \($0)" } ?? "")
    }

    /// The key's path: `["http", "max_body_bytes"]`.
    package var path: [String] { key.split(separator: ".").map(String.init) }

    /// The object the setting lives in (`http`; empty for a top-level setting).
    package var section: String { path.dropLast().joined(separator: ".") }

    /// The member name in that object (`max_body_bytes`).
    package var name: String { path.last ?? key }

    /// `PASSKEYD_` and the path joined by `_`, upper-cased: `PASSKEYD_HTTP_MAX_BODY_BYTES`.
    package var variable: String { "PASSKEYD_" + path.joined(separator: "_").uppercased() }
}

/// An integer setting: its default and the range a value must lie in.
package struct IntegerSetting: Sendable {
    package let descriptor: SettingDescriptor
    package let defaultValue: Int
    package let range: ClosedRange<Int>

    /// `note` follows the default in the README (`(1 GiB)`); the range is appended to `doc`.
    package init(
        _ key: String, default value: Int, range: ClosedRange<Int>, flag: String? = nil, note: String? = nil,
        doc: String
    ) {
        defaultValue = value
        self.range = range
        let bounds =
            range.upperBound == Int.max ? "at least \(range.lowerBound)" : "\(range.lowerBound)–\(range.upperBound)"
        descriptor = SettingDescriptor(
            key: key, form: .integer, defaultValue: .number(String(value)), note: note,
            meaning: doc.isEmpty ? bounds : "\(doc); \(bounds)", flag: flag)
    }
}

/// A `true`/`false` setting.
package struct BooleanSetting: Sendable {
    package let descriptor: SettingDescriptor
    package let defaultValue: Bool

    package init(_ key: String, default value: Bool, doc: String) {
        defaultValue = value
        descriptor = SettingDescriptor(key: key, form: .boolean, defaultValue: .bool(value), meaning: doc)
    }
}

/// A string setting with a default, or required (`default: nil`).
package struct TextSetting: Sendable {
    package let descriptor: SettingDescriptor
    /// `nil`: the setting is required.
    package let defaultValue: String?
    /// Whether the empty string is a value (else it is refused: "must not be empty").
    package let allowsEmpty: Bool

    /// `note` follows the default in the README (`empty (off)`); `required` replaces "required" there.
    package init(
        _ key: String, default value: String?, allowsEmpty: Bool = true, flag: String? = nil, note: String? = nil,
        required: String = "required", doc: String
    ) {
        defaultValue = value
        self.allowsEmpty = allowsEmpty
        descriptor = SettingDescriptor(
            key: key, form: .text, defaultValue: value.map(JSONValue.string), absent: required, note: note,
            meaning: doc, flag: flag)
    }
}

/// A string setting that may be left out: absent, the reader decides (unset, or a value derived from other settings,
/// which `absent` describes for the README).
package struct OptionalTextSetting: Sendable {
    package let descriptor: SettingDescriptor

    package init(_ key: String, absent: String = "unset", doc: String) {
        descriptor = SettingDescriptor(key: key, form: .text, defaultValue: nil, absent: absent, meaning: doc)
    }
}

/// One of a closed set of spellings.
package protocol SettingChoice: CaseIterable, Sendable, Equatable {
    /// How the configuration spells it.
    var settingName: String { get }
}

extension SettingChoice where Self: RawRepresentable, RawValue == String {
    package var settingName: String { rawValue }
}

/// A setting that takes one of `Choice`'s spellings.
package struct ChoiceSetting<Choice: SettingChoice>: Sendable {
    package let descriptor: SettingDescriptor
    package let defaultValue: Choice

    package init(_ key: String, default value: Choice, doc: String) {
        defaultValue = value
        descriptor = SettingDescriptor(
            key: key, form: .text, defaultValue: .string(value.settingName), meaning: doc)
    }

    /// The choice spelt `text`, if any.
    package func choice(_ text: String) -> Choice? { Choice.allCases.first { $0.settingName == text } }

    /// `must be "a", "b" or "c"`.
    package var expectation: String {
        let names = Choice.allCases.map { "\"\($0.settingName)\"" }
        guard let last = names.last, names.count > 1 else { return "must be \(names.joined())" }
        return "must be \(names.dropLast().joined(separator: ", ")) or \(last)"
    }
}

/// A list of strings, empty by default (JSON text in the environment).
package struct ListSetting: Sendable {
    package let descriptor: SettingDescriptor

    package init(_ key: String, doc: String) {
        descriptor = SettingDescriptor(key: key, form: .json, defaultValue: .array([]), meaning: doc)
    }
}

/// A list of objects, read by their own reader (`clients`, `realms`, …), with JSON text in the environment.
package struct RecordsSetting: Sendable {
    package let descriptor: SettingDescriptor
    /// What one record is called in "at least one … is required"; `nil`: the list may be empty (the default).
    package let requiredRecord: String?

    package init(_ key: String, requiredRecord: String? = nil, doc: String) {
        self.requiredRecord = requiredRecord
        descriptor = SettingDescriptor(
            key: key, form: .json, defaultValue: requiredRecord == nil ? .array([]) : nil, meaning: doc)
    }
}

/// `database.synchronous`'s spellings are the SQLite driver's own (`full`, `normal`).
extension SQLiteSynchronous: SettingChoice {}
