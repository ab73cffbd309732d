import Crypto
import JSON
import Testing

@testable import WebAuthn

@Suite("PublicKeyCredentialJSON")
struct PublicKeyCredentialJSONTests {
    /// A response carrying both ceremonies' members, each valid.
    static let valid: JSONValue = [
        "id": "AQID", "rawId": "AQID", "type": "public-key",
        "response": [
            "clientDataJSON": "e30", "attestationObject": "oA", "transports": ["internal", "hybrid"],
            "authenticatorData": "AAAA", "signature": "MEQ", "userHandle": "AQ",
        ],
        "clientExtensionResults": [:],
    ]

    /// `value` with the member at `path` set to `replacement`, or removed when it is `nil`.
    static func changing(_ value: JSONValue, _ path: [String], to replacement: JSONValue?) -> JSONValue {
        guard let key = path.first, case .object(var members) = value else { return value }
        guard path.count > 1 else {
            members.removeAll { $0.key == key }
            if let replacement { members.append(JSONMember(key: key, value: replacement)) }
            return .object(members)
        }
        return .object(
            members.map { member in
                guard member.key == key else { return member }
                return JSONMember(key: key, value: changing(member.value, Array(path.dropFirst()), to: replacement))
            })
    }

    /// The verdicts of reading `json` for either ceremony.
    static func readings(_ json: JSONValue) -> [Result<Void, WebAuthnError>] {
        [
            Result { () throws(WebAuthnError) in _ = try PublicKeyCredentialJSON(json: json).registration() },
            Result { () throws(WebAuthnError) in _ = try PublicKeyCredentialJSON(json: json).authentication() },
        ]
    }

    @Test("a valid response reads to its bytes for either ceremony")
    func valid() throws {
        let json = try PublicKeyCredentialJSON(json: Self.valid)
        #expect(json.id == "AQID" && json.rawID == [1, 2, 3] && json.type == "public-key")
        #expect(json.transports == ["internal", "hybrid"])
        let registration = try json.registration()
        #expect(registration.clientDataJSON == Array("{}".utf8) && registration.attestationObject == [0xA0])
        let authentication = try json.authentication()
        #expect(authentication.authenticatorData == [0, 0, 0] && authentication.signature == [0x30, 0x44])
        #expect(authentication.userHandle == [1])
    }

    @Test("userHandle absent or null is none")
    func userHandleNone() throws {
        for replacement in [nil, JSONValue.null] {
            let json = Self.changing(Self.valid, ["response", "userHandle"], to: replacement)
            #expect(try PublicKeyCredentialJSON(json: json).authentication().userHandle == nil)
        }
    }

    @Test(
        "a member missing, or of another JSON type, is malformedResponse",
        arguments: [
            ["id"], ["rawId"], ["type"], ["response"], ["response", "clientDataJSON"],
        ])
    func missingOrMistyped(path: [String]) {
        for replacement in [nil, JSONValue.number("1"), .bool(true), .array([]), ["a": "b"]] as [JSONValue?] {
            let json = Self.changing(Self.valid, path, to: replacement)
            for reading in Self.readings(json) {
                #expect(throws: code(.malformedResponse), "\(path) \(String(describing: replacement))") {
                    try reading.get()
                }
            }
        }
    }

    @Test("an optional member of another JSON type is malformedResponse; transports must be an array of strings")
    func optionalMistyped() {
        let cases: [([String], JSONValue)] = [
            (["response", "attestationObject"], 1), (["response", "authenticatorData"], true),
            (["response", "signature"], ["a": "b"]), (["response", "userHandle"], 7),
            (["response", "transports"], "internal"), (["response", "transports"], ["internal", 1]),
        ]
        for (path, replacement) in cases {
            #expect(throws: code(.malformedResponse), "\(path)") {
                try PublicKeyCredentialJSON(json: Self.changing(Self.valid, path, to: replacement))
            }
        }
        #expect(throws: code(.malformedResponse)) { try PublicKeyCredentialJSON(json: "x") }
    }

    @Test("each ceremony needs its own members")
    func ceremonyMembers() throws {
        let noAttestation = Self.changing(Self.valid, ["response", "attestationObject"], to: nil)
        #expect(throws: code(.malformedResponse)) { try PublicKeyCredentialJSON(json: noAttestation).registration() }
        _ = try PublicKeyCredentialJSON(json: noAttestation).authentication()
        for member in ["authenticatorData", "signature"] {
            let json = Self.changing(Self.valid, ["response", member], to: nil)
            #expect(throws: code(.malformedResponse)) { try PublicKeyCredentialJSON(json: json).authentication() }
            _ = try PublicKeyCredentialJSON(json: json).registration()
        }
    }

    @Test(
        "a binary member padded, in the standard alphabet or with whitespace is malformedResponse, whichever ceremony reads it",
        arguments: ["rawId", "clientDataJSON", "attestationObject", "authenticatorData", "signature", "userHandle"])
    func notBase64URL(member: String) throws {
        let path = member == "rawId" ? [member] : ["response", member]
        let text = try #require(path.reduce(Optional(Self.valid)) { $0?[$1] }?.stringValue)
        // Padded, the standard alphabet, whitespace.
        let respelled = [text + "=", text + "==", "+" + text.dropFirst(), " " + text, text + "\n"]
        for spelling in respelled {
            let json = Self.changing(Self.valid, path, to: .string(spelling))
            // A member of the other ceremony is not read by this one.
            let readers: [Result<Void, WebAuthnError>] =
                switch member {
                case "attestationObject": [Self.readings(json)[0]]
                case "authenticatorData", "signature", "userHandle": [Self.readings(json)[1]]
                default: Self.readings(json)
                }
            for reading in readers {
                #expect(throws: code(.malformedResponse), "\(member) \(spelling)") { try reading.get() }
            }
        }
    }

    @Test(
        "RFC 4648 §3.5: a member whose last character has non-zero unused bits reads as its bytes",
        arguments: ["clientDataJSON", "attestationObject", "signature", "userHandle"])
    func unusedBitsIgnored(member: String) throws {
        let path = ["response", member]
        let text = try #require(path.reduce(Optional(Self.valid)) { $0?[$1] }?.stringValue)
        let other = settingUnusedBits(text)
        try #require(other != text, "the member must have unused bits that are zero")
        let json = Self.changing(Self.valid, path, to: .string(other))
        let canonical = try PublicKeyCredentialJSON(json: Self.valid)
        let respelled = try PublicKeyCredentialJSON(json: json)
        switch member {
        case "clientDataJSON":
            #expect(try respelled.registration().clientDataJSON == canonical.registration().clientDataJSON)
        case "attestationObject":
            #expect(try respelled.registration().attestationObject == canonical.registration().attestationObject)
        case "signature":
            #expect(try respelled.authentication().signature == canonical.authentication().signature)
        default:
            #expect(try respelled.authentication().userHandle == canonical.authentication().userHandle)
        }
    }

    @Test("transports are kept to 8 of at most 32 characters")
    func transportsBounded() throws {
        let many = JSONValue.array((0..<20).map { .string(String(repeating: "x", count: $0 + 30)) })
        let json = try PublicKeyCredentialJSON(json: Self.changing(Self.valid, ["response", "transports"], to: many))
        #expect(json.transports.count == 8)
        #expect(json.transports.allSatisfy { $0.count <= 32 })
    }
}

/// `text` (base64url whose length leaves unused bits) with every unused bit of its last character set: the same
/// bytes in another spelling (RFC 4648 §3.5).
func settingUnusedBits(_ text: String) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    guard let last = text.last, let value = alphabet.firstIndex(of: last) else { return text }
    let mask = text.count % 4 == 2 ? 0b1111 : 0b11
    return String(text.dropLast()) + String(alphabet[value | mask])
}
