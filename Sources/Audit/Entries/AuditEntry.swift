import Foundation
import JSON

/// One entry of the audit log: a security event as canonical JSON (RFC 8785), the exact bytes of a Merkle leaf.
///
/// Members (absent when unknown): `seq` (the leaf index, from 0), `time` (server time of the event, UTC ISO 8601
/// with milliseconds), `event`, `outcome`, `reason`, `actor` {`user_id`, `client_id`}, `object`
/// {`credential_id`, `key_id`, `family_id`, `device_id`, `action_hash`}, `attempts`, `device_time`, `request_id`,
/// `client_address`, `node_id`, `detail`. Never an email, a token or a secret. Every string is cut to
/// `maxStringScalars` and `detail` is kept only up to `maxDetailBytes`, so no client-chosen value enters unbounded.
public struct AuditEntry: Sendable, Equatable {
    /// The longest string copied into an entry, in Unicode scalars.
    public static let maxStringScalars = 200
    /// The largest `detail` copied into an entry, in serialized bytes; a larger one is replaced by its size.
    public static let maxDetailBytes = 1_024

    public var seq: Int64
    public var time: Date
    public var event: String
    public var outcome: String
    public var reason: String?
    public var userID: String?
    public var clientID: String?
    /// base64url.
    public var credentialID: String?
    public var keyID: String?
    public var familyID: String?
    public var deviceID: String?
    /// base64url of the SHA-256 of an approved action.
    public var actionHash: String?
    public var attempts: Int?
    /// The time a device reported (untrusted).
    public var deviceTime: Date?
    public var requestID: String?
    public var clientAddress: String?
    public var nodeID: String?
    /// Extra detail as JSON.
    public var detail: JSONValue?

    public init(seq: Int64, time: Date, event: String, outcome: String) {
        self.seq = seq
        self.time = time
        self.event = event
        self.outcome = outcome
    }

    /// The leaf bytes: RFC 8785 canonical JSON.
    /// - Throws: `.malformed` when `detail` holds a number JSON cannot carry canonically.
    public func canonicalBytes() throws(AuditError) -> [UInt8] {
        var members: [JSONMember] = [
            JSONMember(key: "seq", value: .number(String(seq))),
            JSONMember(key: "time", value: .string(Self.timestamp(time))),
            JSONMember(key: "event", value: Self.bounded(event)),
            JSONMember(key: "outcome", value: Self.bounded(outcome)),
        ]
        func add(_ key: String, _ value: String?, to list: inout [JSONMember]) {
            if let value { list.append(JSONMember(key: key, value: Self.bounded(value))) }
        }
        add("reason", reason, to: &members)
        var actor: [JSONMember] = []
        add("user_id", userID, to: &actor)
        add("client_id", clientID, to: &actor)
        if !actor.isEmpty { members.append(JSONMember(key: "actor", value: .object(actor))) }
        var object: [JSONMember] = []
        add("credential_id", credentialID, to: &object)
        add("key_id", keyID, to: &object)
        add("family_id", familyID, to: &object)
        add("device_id", deviceID, to: &object)
        add("action_hash", actionHash, to: &object)
        if !object.isEmpty { members.append(JSONMember(key: "object", value: .object(object))) }
        if let attempts { members.append(JSONMember(key: "attempts", value: .number(String(attempts)))) }
        if let deviceTime { members.append(JSONMember(key: "device_time", value: .string(Self.timestamp(deviceTime)))) }
        add("request_id", requestID, to: &members)
        add("client_address", clientAddress, to: &members)
        add("node_id", nodeID, to: &members)
        if let detail {
            let size = detail.serialized().count
            members.append(
                size <= Self.maxDetailBytes
                    ? JSONMember(key: "detail", value: detail)
                    : JSONMember(key: "detail_omitted_bytes", value: .number(String(size))))
        }
        do {
            return try JCS.canonicalBytes(.object(members))
        } catch {
            throw AuditError(.malformed, "entry \(seq) has no canonical form: \(error)")
        }
    }

    /// UTC ISO 8601 with milliseconds, e.g. `2026-12-02T01:24:01.123Z`.
    public static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt))
    }

    static func bounded(_ text: String) -> JSONValue {
        let scalars = text.unicodeScalars
        guard scalars.count > maxStringScalars else { return .string(text) }
        var cut = String.UnicodeScalarView()
        cut.append(contentsOf: scalars.prefix(maxStringScalars))
        return .string(String(cut))
    }

    /// The `seq` member of leaf bytes, if they are a JSON object holding one.
    public static func sequenceNumber(of leaf: [UInt8]) -> Int64? {
        guard case .object(let members)? = try? JSONValue(parsing: leaf, maximumDepth: 8),
            let seq = members.first(where: { $0.key == "seq" })?.value, case .number(let text) = seq
        else { return nil }
        return Int64(text)
    }

    /// Whether `leaf` is exactly the canonical form of the JSON it holds (RFC 8785).
    public static func isCanonical(_ leaf: [UInt8]) -> Bool {
        guard let value = try? JSONValue(parsing: leaf, maximumDepth: 8) else { return false }
        return (try? JCS.canonicalBytes(value)) == leaf
    }
}
