import JSON

/// JSON string literals for the software authenticator, which builds its small documents by concatenation
/// (far cheaper than JSONEncoder in a load generator's hot loop); the escaping is the JSON module's.
enum JSONText {
    /// `text` as a JSON string literal (RFC 8259 §7, escaped as RFC 8785 §3.2.2.2 spells it).
    static func quoted(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 2)
        JSONWriter.appendString(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
