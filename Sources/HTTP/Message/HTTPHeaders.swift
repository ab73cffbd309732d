/// An ordered list of header fields with case-insensitive name lookup (RFC 9110 §5.1).
///
/// Names are compared ASCII case-insensitively without allocating; order and duplicates are kept.
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One header field.
    public typealias Element = (name: String, value: String)

    private var fields: [Element]

    /// An empty header list.
    public init() {
        fields = []
    }

    /// Headers from `(name, value)` pairs, in order.
    public init(_ pairs: [(String, String)]) {
        fields = pairs.map { (name: $0.0, value: $0.1) }
    }

    /// Headers from a literal, in order.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// The value of the first field called `name`, or `nil`.
    public subscript(name: String) -> String? {
        for field in fields where Self.namesMatch(field.name, name) {
            return field.value
        }
        return nil
    }

    /// Every value of the fields called `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.namesMatch($0.name, name) }.map(\.value)
    }

    /// Whether a field called `name` is present.
    public func contains(_ name: String) -> Bool {
        fields.contains { Self.namesMatch($0.name, name) }
    }

    /// Appends a field, keeping any existing fields of the same name.
    public mutating func add(name: String, value: String) {
        fields.append((name: name, value: value))
    }

    /// Replaces every field called `name` with one field, at the position of the first one (or at the end).
    public mutating func replace(name: String, value: String) {
        if let first = fields.firstIndex(where: { Self.namesMatch($0.name, name) }) {
            fields[first] = (name: name, value: value)
            var index = fields.index(after: first)
            while index < fields.endIndex {
                if Self.namesMatch(fields[index].name, name) {
                    fields.remove(at: index)
                } else {
                    index = fields.index(after: index)
                }
            }
        } else {
            fields.append((name: name, value: value))
        }
    }

    /// Removes every field called `name`.
    public mutating func remove(name: String) {
        fields.removeAll { Self.namesMatch($0.name, name) }
    }

    /// Iterates over the fields in order.
    public func makeIterator() -> IndexingIterator<[Element]> {
        fields.makeIterator()
    }

    /// `name: value` lines, for debugging.
    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    /// RFC 9110 §5.1: field names are case-insensitive (ASCII only: names are tokens).
    static func namesMatch(_ lhs: String, _ rhs: String) -> Bool {
        var lhsUTF8 = lhs.utf8.makeIterator()
        var rhsUTF8 = rhs.utf8.makeIterator()
        while true {
            switch (lhsUTF8.next(), rhsUTF8.next()) {
            case (nil, nil):
                return true
            case (let left?, let right?):
                if ASCII.lowercased(left) != ASCII.lowercased(right) { return false }
            default:
                return false
            }
        }
    }
}

/// Byte-level ASCII helpers shared by the header, media-type and form code.
enum ASCII {
    /// Lower-cases an ASCII letter; other bytes pass through.
    @inline(__always)
    static func lowercased(_ byte: UInt8) -> UInt8 {
        (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
    }

    /// The value of a hexadecimal digit, or `nil`.
    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x41 + 10
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }

    /// Lower-case hexadecimal digits.
    static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}
