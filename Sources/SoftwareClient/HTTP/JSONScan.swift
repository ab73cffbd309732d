/// Tiny JSON helpers for the load generator's hot loop: a string member found by scanning bytes, and string quoting.
package enum JSONScan {
    /// The value of the first `"key": "value"` member in `json` when the value has no escapes; nil otherwise
    /// (the caller then parses properly).
    package static func string(_ key: String, in json: [UInt8]) -> String? {
        let needle = Array("\"\(key)\"".utf8)
        guard let keyStart = find(needle, in: json) else { return nil }
        var index = keyStart + needle.count
        while index < json.count, json[index] == 0x20 { index += 1 }
        guard index < json.count, json[index] == 0x3A else { return nil }  // ':'
        index += 1
        while index < json.count, json[index] == 0x20 { index += 1 }
        guard index < json.count, json[index] == 0x22 else { return nil }  // '"'
        let start = index + 1
        var end = start
        while end < json.count, json[end] != 0x22 {
            if json[end] == 0x5C { return nil }  // a backslash: leave it to the real parser
            end += 1
        }
        guard end < json.count else { return nil }
        return String(decoding: json[start..<end], as: UTF8.self)
    }

    /// `text` as a JSON string literal (RFC 8259 §7).
    package static func quoted(_ text: String) -> String {
        // Session handles, client ids and scopes never need escaping: skip the per-scalar walk for them.
        if !text.utf8.contains(where: { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 }) { return "\"" + text + "\"" }
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where scalar.value < 0x20:
                result += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard let first = needle.first, haystack.count >= needle.count else { return nil }
        var index = 0
        while index <= haystack.count - needle.count {
            if haystack[index] == first && haystack[index..<(index + needle.count)].elementsEqual(needle) {
                return index
            }
            index += 1
        }
        return nil
    }
}
