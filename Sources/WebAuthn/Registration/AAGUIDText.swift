/// UUID text form of an AAGUID (RFC 9562 §4: 8-4-4-4-12 lower-case hex digits).
enum AAGUIDText {
    static func format(_ bytes: [UInt8]) -> String {
        let hex = bytes.map { byte in
            let text = String(byte, radix: 16)
            return text.count == 1 ? "0" + text : text
        }
        guard hex.count == 16 else { return hex.joined() }
        return [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }.joined(
            separator: "-")
    }
}
