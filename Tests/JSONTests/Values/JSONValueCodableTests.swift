import Foundation
import Testing

@testable import JSON

@Suite("JSONValue: Codable")
struct JSONValueCodableTests {
    @Test("decodes through JSONDecoder keeping booleans apart from numbers")
    func decodes() throws {
        let decoded = try JSONDecoder().decode(
            JSONValue.self, from: Data(#"{"a":true,"b":1,"c":[null,"x"],"d":{}}"#.utf8))
        #expect(decoded == ["a": true, "b": 1, "c": [nil, "x"], "d": .object([])])
    }

    @Test("round-trips through JSONEncoder")
    func roundTrip() throws {
        let value: JSONValue = ["a": [false, -0.5, "é"], "b": nil]
        let data = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: data) == value)
    }

    @Test("Codable round trip of every kind of value")
    func codable() throws {
        let value: JSONValue = ["a": [1, 2.5, "x", true, nil], "o": ["k": "v"]]
        let data = try JSONEncoder().encode(value)
        let decoded = try JSONDecoder().decode(JSONValue.self, from: data)
        #expect(decoded == value)
    }
}
