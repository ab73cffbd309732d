import JSON
import Testing

@testable import DeviceKeys

@Suite("DeviceAction: RFC 9396 authorization detail within review-sized limits")
struct DeviceActionTests {
    static let transfer =
        #"{"type":"transfer","amount":{"currency":"EUR","value":"200.00"},"to":"FR76 3000 6000 0112 3456 7890 189"}"#

    @Test("a valid action keeps its value, type and canonical bytes")
    func valid() throws {
        let action = try DeviceAction(
            jsonBytes: utf8(
                #" { "to": "FR76 3000 6000 0112 3456 7890 189", "type": "transfer", "#
                    + #""amount": {"value": "200.00", "currency": "EUR"} } "#
            ))
        #expect(action.type == "transfer")
        #expect(
            action.canonicalBytes
                == utf8(
                    #"{"amount":{"currency":"EUR","value":"200.00"},"#
                        + #""to":"FR76 3000 6000 0112 3456 7890 189","type":"transfer"}"#
                ))
    }

    @Test("refuses a non-object action", arguments: [#"["transfer"]"#, #""transfer""#, "7", "null"])
    func notObject(text: String) { expectRefusal(text, code: .actionNotObject) }

    @Test(
        "refuses a missing, non-string or empty type", arguments: [#"{"kind":"x"}"#, #"{"type":1}"#, #"{"type":""}"#])
    func badType(text: String) { expectRefusal(text, code: .actionMissingType) }

    @Test("refuses JSON with a duplicate member")
    func duplicate() { expectRefusal(#"{"type":"a","type":"b"}"#, code: .invalidAuthorizationDetails) }

    @Test("refuses malformed JSON")
    func malformed() { expectRefusal(#"{"type":"a""#, code: .invalidAuthorizationDetails) }

    @Test("depth 5 is accepted, depth 6 refused (the action object is depth 1)")
    func depth() throws {
        _ = try DeviceAction(jsonBytes: utf8(#"{"type":"t","a":{"b":{"c":{"d":[1]}}}}"#))
        expectRefusal(
            #"{"type":"t","a":{"b":{"c":{"d":[[1]]}}}}"#, code: .actionTooDeep, naming: "nesting deeper than 5")
        // Checked on a parsed value as well as while parsing.
        _ = try DeviceAction(validating: ["type": "t", "a": [[[[]]]]])
        let deep: JSONValue = ["type": "t", "a": [[[[[]]]]]]
        #expect(throws: DeviceKeyError(.actionTooDeep, "")) { try DeviceAction(validating: deep) }
        let deepObject: JSONValue = ["type": "t", "a": ["b": ["c": ["d": ["e": ["f": 1]]]]]]
        #expect(throws: DeviceKeyError(.actionTooDeep, "")) { try DeviceAction(validating: deepObject) }
    }

    @Test("32 members in total are accepted, 33 refused, counted across nested objects")
    func totalMembers() throws {
        func action(top: Int, nested: Int) -> JSONValue {
            let inner = (0..<nested).map { JSONMember(key: "n\($0)", value: true) }
            var members = [JSONMember(key: "type", value: "t"), JSONMember(key: "inner", value: .object(inner))]
            for index in 0..<(top - 2) { members.append(JSONMember(key: "m\(index)", value: nil)) }
            return .object(members)
        }
        _ = try DeviceAction(validating: action(top: 16, nested: 16))
        let error = #expect(throws: DeviceKeyError(.actionTooManyMembers, "")) {
            try DeviceAction(validating: action(top: 16, nested: 17))
        }
        #expect(error?.reason.contains("maxTotalMembers") == true)
    }

    @Test("strings of 255 characters are accepted, 256 refused, member names included")
    func stringLength() throws {
        let ok = String(repeating: "é", count: 255)
        _ = try DeviceAction(validating: ["type": .string(ok)])
        let long = String(repeating: "é", count: 256)
        let error = #expect(throws: DeviceKeyError(.actionStringTooLong, "")) {
            try DeviceAction(validating: ["type": "t", "note": .string(long)])
        }
        #expect(error?.reason.contains("maxStringLength") == true)
        #expect(throws: DeviceKeyError(.actionStringTooLong, "")) {
            try DeviceAction(
                validating: .object([JSONMember(key: "type", value: "t"), JSONMember(key: long, value: nil)]))
        }
    }

    @Test("4096 canonical bytes are accepted, 4097 refused")
    func size() throws {
        // {"a":[…],"type":"t"}: 250-character strings, then one filler string sized to hit the target exactly.
        func action(bytes target: Int) throws -> JSONValue {
            let chunk = JSONValue.string(String(repeating: "x", count: 250))
            let elements = Array(repeating: chunk, count: 16)
            let withEmptyFiller = try JCS.canonicalBytes(["type": "t", "a": .array(elements + [""])])
            let filler = String(repeating: "y", count: target - withEmptyFiller.count)
            return ["type": "t", "a": .array(elements + [.string(filler)])]
        }
        let exact = try DeviceAction(validating: try action(bytes: 4096))
        #expect(exact.canonicalBytes.count == 4096)
        let error = #expect(throws: DeviceKeyError(.actionTooLarge, "")) {
            try DeviceAction(validating: try action(bytes: 4097))
        }
        #expect(error?.reason.contains("maxCanonicalBytes") == true)
    }

    @Test("refuses a huge input before parsing it")
    func hugeInput() {
        expectRefusal(
            #"{"type":"t","a":""# + String(repeating: " ", count: 20_000) + "\"}", code: .actionTooLarge,
            naming: "maxCanonicalBytes")
    }

    @Test("refuses a number without a finite double value, parsed or constructed (RFC 8785 §3.2.2.3)")
    func nonFinite() {
        expectRefusal(#"{"type":"t","n":1e400}"#, code: .invalidAuthorizationDetails, naming: "non_finite_number")
        #expect(throws: DeviceKeyError(.invalidAuthorizationDetails, "")) {
            try DeviceAction(validating: ["type": "t", "n": .number("NaN")])
        }
    }

    @Test("refuses a constructed object with a repeated member name (RFC 7493 §2.3)")
    func constructedDuplicate() {
        let value: JSONValue = .object([JSONMember(key: "type", value: "t"), JSONMember(key: "type", value: "u")])
        #expect(throws: DeviceKeyError(.invalidAuthorizationDetails, "")) { try DeviceAction(validating: value) }
    }

    private func expectRefusal(
        _ text: String, code: DeviceKeyError.Code, naming limit: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let error = #expect(throws: DeviceKeyError(code, ""), sourceLocation: sourceLocation) {
            try DeviceAction(jsonBytes: utf8(text))
        }
        if let limit { #expect(error?.reason.contains(limit) == true, sourceLocation: sourceLocation) }
    }
}
