import JSON

/// Writes the small, flat JSON objects JOSE needs (headers, claims sets, JWKs) deterministically:
/// members sorted by name, no whitespace, minimal escaping.
///
/// Why not `JSONEncoder` or `JSONValue`: neither can embed already-serialised JSON, and the action token must
/// carry the action's RFC 8785 bytes verbatim. Strings are written by the JSON module's `JSONWriter` (the
/// RFC 8785 string form); this builder only knows the handful of member kinds claims use.
struct JSONObjectWriter {
    /// One member value.
    enum Member {
        case string(String)
        case integer(Int64)
        case bool(Bool)
        case strings([String])
        /// Already-serialised JSON, written verbatim (the caller guarantees it is valid JSON).
        case raw([UInt8])
    }

    private var members: [String: Member] = [:]

    /// Sets a member; `nil` leaves it out (optional claims are omitted, never `null`).
    mutating func set(_ name: String, _ member: Member?) {
        members[name] = member
    }

    /// The object's bytes, members sorted by name (claim names are ASCII, so this is also RFC 8785 order).
    func bytes() -> [UInt8] {
        var output: [UInt8] = [UInt8(ascii: "{")]
        for (index, name) in members.keys.sorted(by: { $0.utf16.lexicographicallyPrecedes($1.utf16) }).enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            JSONWriter.appendString(name, to: &output)
            output.append(UInt8(ascii: ":"))
            switch members[name] {
            case .string(let text)?: JSONWriter.appendString(text, to: &output)
            case .integer(let number)?: output.append(contentsOf: String(number).utf8)
            case .bool(let flag)?: output.append(contentsOf: (flag ? "true" : "false").utf8)
            case .strings(let texts)?:
                output.append(UInt8(ascii: "["))
                for (position, text) in texts.enumerated() {
                    if position > 0 { output.append(UInt8(ascii: ",")) }
                    JSONWriter.appendString(text, to: &output)
                }
                output.append(UInt8(ascii: "]"))
            case .raw(let json)?: output.append(contentsOf: json)
            case nil: output.append(contentsOf: "null".utf8)
            }
        }
        output.append(UInt8(ascii: "}"))
        return output
    }

    /// A JSON array of already-serialised elements.
    static func array(ofRaw elements: [[UInt8]]) -> [UInt8] {
        var output: [UInt8] = [UInt8(ascii: "[")]
        for (index, element) in elements.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            output.append(contentsOf: element)
        }
        output.append(UInt8(ascii: "]"))
        return output
    }
}
