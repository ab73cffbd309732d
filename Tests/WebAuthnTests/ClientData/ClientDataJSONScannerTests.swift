import Testing

@testable import WebAuthn

@Suite("ClientDataJSONScanner")
struct ClientDataJSONScannerTests {
    func scan(_ text: String) -> [ClientDataJSONScanner.Member]? {
        var members = ClientDataJSONScanner.Members()
        guard ClientDataJSONScanner.scan(Array(text.utf8), into: &members) else { return nil }
        return (0..<members.count).map { members[$0] }
    }

    @Test("up to the inline capacity of members is read; one more is left to the general parser")
    func capacity() {
        func object(_ count: Int) -> String {
            "{" + (0..<count).map { #""m\#($0)":"v""# }.joined(separator: ",") + "}"
        }
        let capacity = ClientDataJSONScanner.Members.capacity
        #expect(scan(object(capacity))?.count == capacity)
        #expect(scan(object(capacity + 1)) == nil)
    }

    /// A member's value with a string shown as its text, for comparing.
    enum Shown: Equatable {
        case string(String), bool(Bool), null
    }

    @Test("the browser shape is read member by member, in order, whitespace allowed around tokens")
    func accepted() throws {
        let text = #" { "type" : "webauthn.get", "crossOrigin":true, "x":false, "y": null, "": "" } "#
        let bytes = Array(text.utf8)
        let members = try #require(scan(text))
        #expect(members.map { String(decoding: bytes[$0.name], as: UTF8.self) } == ["type", "crossOrigin", "x", "y", ""])
        let shown: [Shown] = members.map { member in
            switch member.value {
            case .string(let range): .string(String(decoding: bytes[range], as: UTF8.self))
            case .bool(let flag): .bool(flag)
            case .null: .null
            }
        }
        #expect(shown == [.string("webauthn.get"), .bool(true), .bool(false), .null, .string("")])
        #expect(scan("{}")?.isEmpty == true)
    }

    @Test(
        "anything outside the shape is left to the general parser",
        arguments: [
            #"{"origin":"https:\/\/rp"}"#,  // escape
            #"{"n":1}"#,  // number
            #"{"tokenBinding":{"status":"present"}}"#,  // nested object
            #"{"a":[]}"#,  // array
            #"{"a":"b","a":"c"}"#,  // duplicate name
            "{\"a\":\"\u{e9}\"}",  // non-ASCII
            "{\"a\":\"\u{1}\"}",  // control character
            #"{"a":"b"} x"#,  // trailing bytes
            #"{"a":"b",}"#,  // trailing comma
            #"{"a" "b"}"#,  // missing colon
            #"{"a":tru}"#,  // bad literal
            #"{"a":"b""#,  // unterminated object
            #"{"a":"b"#,  // unterminated string
            "\u{feff}{}",  // byte order mark
            "[]",
            "",
        ])
    func refused(_ text: String) {
        #expect(scan(text) == nil)
    }

    @Test("client data with escapes takes the general path and reads to the same values")
    func escapedTakesGeneralPath() throws {
        let plain = try CollectedClientData(
            bytes: Array(#"{"type":"webauthn.get","challenge":"AQID","origin":"https://rp.example"}"#.utf8))
        let escaped = try CollectedClientData(
            bytes: Array(#"{"type":"webauthn.get","challenge":"AQID","origin":"https:\/\/rp.example"}"#.utf8))
        #expect(plain.origin == escaped.origin)
        #expect(plain.type == escaped.type)
        #expect(plain.challenge == escaped.challenge)
    }
}
