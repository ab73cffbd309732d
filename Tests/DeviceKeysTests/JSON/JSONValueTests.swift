import Foundation
import Testing

@testable import DeviceKeys

@Suite("JSONValue: accessors and Codable")
struct JSONValueTests {
    @Test("accessors return payloads of the matching kind only")
    func accessors() {
        let value: JSONValue = .object(["s": .string("x"), "n": .number(2), "a": .array([.null])])
        #expect(value["s"]?.stringValue == "x")
        #expect(value["n"]?.numberValue == 2)
        #expect(value["a"]?.arrayValue == [.null])
        #expect(value.objectValue?.count == 3)
        #expect(value["s"]?.numberValue == nil)
        #expect(JSONValue.string("x")["s"] == nil)
    }

    @Test("decodes through JSONDecoder keeping booleans apart from numbers")
    func decodes() throws {
        let decoded = try JSONDecoder().decode(
            JSONValue.self, from: Data(#"{"a":true,"b":1,"c":[null,"x"],"d":{}}"#.utf8))
        #expect(
            decoded
                == .object(["a": .bool(true), "b": .number(1), "c": .array([.null, .string("x")]), "d": .object([:])]))
    }

    @Test("round-trips through JSONEncoder")
    func roundTrip() throws {
        let value: JSONValue = .object(["a": .array([.bool(false), .number(-0.5), .string("é")]), "b": .null])
        let data = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: data) == value)
    }
}
