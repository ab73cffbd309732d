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

    /// The members in insertion order, each name once (a handful: a linear search beats hashing here).
    private var members: [(name: String, member: Member)] = []

    /// Sets a member; `nil` leaves it out (optional claims are omitted, never `null`).
    mutating func set(_ name: String, _ member: Member?) {
        if let index = members.firstIndex(where: { $0.name == name }) {
            if let member { members[index].member = member } else { members.remove(at: index) }
        } else if let member {
            members.append((name, member))
        }
    }

    /// The object's bytes, members sorted by name (claim names are ASCII, so this is also RFC 8785 order).
    func bytes() -> [UInt8] {
        var output: [UInt8] = [UInt8(ascii: "{")]
        output.reserveCapacity(256)
        // RFC 8785 §3.2.3 member order: by UTF-16 code units. For ASCII names (every claim name) that is plain
        // byte order, compared without walking UTF-16 views.
        let allASCII = members.allSatisfy { $0.name.utf8.allSatisfy { $0 < 0x80 } }
        let sorted =
            allASCII
            ? members.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            : members.sorted { $0.name.utf16.lexicographicallyPrecedes($1.name.utf16) }
        for (index, entry) in sorted.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            JSONWriter.appendString(entry.name, to: &output)
            output.append(UInt8(ascii: ":"))
            switch entry.member {
            case .string(let text): JSONWriter.appendString(text, to: &output)
            case .integer(let number): output.append(contentsOf: String(number).utf8)
            case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
            case .strings(let texts):
                output.append(UInt8(ascii: "["))
                for (position, text) in texts.enumerated() {
                    if position > 0 { output.append(UInt8(ascii: ",")) }
                    JSONWriter.appendString(text, to: &output)
                }
                output.append(UInt8(ascii: "]"))
            case .raw(let json): output.append(contentsOf: json)
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
