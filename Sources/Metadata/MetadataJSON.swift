import JSON

/// Typed reads of MDS3 JSON members, each failure a `.malformed` that names the member.
enum MetadataJSON {
    /// The members of `value`, which must be an object.
    static func object(_ value: JSONValue, _ name: String) throws(MetadataError) -> [String: JSONValue] {
        guard let members = value.objectValue else { throw MetadataError(.malformed, "\(name) is not an object") }
        return members
    }

    /// The string member `key`, required.
    static func string(_ object: [String: JSONValue], _ key: String) throws(MetadataError) -> String {
        guard let value = try optionalString(object, key) else {
            throw MetadataError(.malformed, "\(key) is missing")
        }
        return value
    }

    /// The string member `key`, nil when absent (`null` counts as absent).
    static func optionalString(_ object: [String: JSONValue], _ key: String) throws(MetadataError) -> String? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let text = value.stringValue else { throw MetadataError(.malformed, "\(key) is not a string") }
        return text
    }

    /// The integer member `key`, nil when absent.
    static func optionalInt(_ object: [String: JSONValue], _ key: String) throws(MetadataError) -> Int? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let number = value.intValue else { throw MetadataError(.malformed, "\(key) is not an integer") }
        return number
    }

    /// The array member `key`, nil when absent.
    static func optionalArray(_ object: [String: JSONValue], _ key: String) throws(MetadataError) -> [JSONValue]? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let elements = value.arrayValue else { throw MetadataError(.malformed, "\(key) is not an array") }
        return elements
    }

    /// The array-of-strings member `key`, nil when absent.
    static func optionalStrings(_ object: [String: JSONValue], _ key: String) throws(MetadataError) -> [String]? {
        guard let elements = try optionalArray(object, key) else { return nil }
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard let text = element.stringValue else {
                throw MetadataError(.malformed, "\(key)[\(index)] is not a string")
            }
            strings.append(text)
        }
        return strings
    }
}
