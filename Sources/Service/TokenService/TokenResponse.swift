import JSON

/// A token answer (RFC 6749 §5.1, and the action token of a device-key approval): the JSON members in order. It is
/// sent with `Cache-Control: no-store` and `Pragma: no-cache` (RFC 6749 §5.1), which the HTTP layer adds.
public struct TokenResponse: Sendable, Equatable {
    /// The members of the JSON object.
    public var members: [JSONMember]

    /// The answer with `members`.
    public init(members: [JSONMember]) {
        self.members = members
    }

    /// The JSON object.
    public var json: JSONValue { .object(members) }

    /// The member `key`, if present.
    public subscript(key: String) -> JSONValue? { members.first { $0.key == key }?.value }
}
