/// One key/value pair of a CBOR map, kept in the order it was encoded.
public struct CBORMapEntry: Sendable, Hashable {
    /// The entry's key.
    public let key: CBORValue
    /// The entry's value.
    public let value: CBORValue

    /// Creates an entry.
    public init(key: CBORValue, value: CBORValue) {
        self.key = key
        self.value = value
    }
}
