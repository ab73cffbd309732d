/// One member of a JSON object: a name and its value, kept in document order by `JSONValue.object`.
public struct JSONMember: Sendable, Hashable {
    /// The member name.
    public var key: String
    /// The member value.
    public var value: JSONValue

    /// Creates a member.
    public init(key: String, value: JSONValue) {
        self.key = key
        self.value = value
    }
}
