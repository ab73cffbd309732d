import Foundation

extension Settings {
    /// The README's configuration table (its "Configuration reference"), rendered from the declarations: a header and
    /// one row per setting, in `all`'s order. A test compares it with README.md, so the README cannot drift from what
    /// the server reads.
    package static var markdownTable: [String] {
        ["| setting | environment variable | default | meaning |", "|---|---|---|---|"] + all.map(\.markdownRow)
    }
}

extension SettingDescriptor {
    /// `| `key` | `VARIABLE` (flag `--x`) | default | meaning |`.
    package var markdownRow: String {
        var variableCell = "`\(variable)`"
        if form == .json { variableCell += " (JSON)" }
        if let flag { variableCell += " (flag `\(flag)`)" }
        let cells = ["`\(key)`", variableCell, defaultText, meaning].map {
            $0.replacingOccurrences(of: "|", with: "\\|")
        }
        return "| " + cells.joined(separator: " | ") + " |"
    }
}
