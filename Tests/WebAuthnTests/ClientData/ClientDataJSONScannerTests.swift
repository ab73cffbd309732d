import Testing

@testable import WebAuthn

@Suite("ClientDataJSONScanner")
struct ClientDataJSONScannerTests {
    func scan(_ text: String) -> [ClientDataJSONScanner.Member]? {
        ClientDataJSONScanner.members(Array(text.utf8))
    }

    @Test("the browser shape is read member by member, in order, whitespace allowed around tokens")
    func accepted() throws {
        let members = try #require(scan(#" { "type" : "webauthn.get", "crossOrigin":true, "x":false, "y": null } "#))
        #expect(members.map { String(decoding: $0.name, as: UTF8.self) } == ["type", "crossOrigin", "x", "y"])
        #expect(members.map(\.value) == [.string("webauthn.get"), .bool(true), .bool(false), .null])
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
