/// One decoded CBOR data item (RFC 8949 §3). Immutable; maps keep the order in which their entries
/// were encoded, because WebAuthn hashes and signs encodings, never re-serialisations.
///
/// Only `tagged` is stored indirectly: arrays and maps already live in their own storage, so the other
/// cases need no box of their own (a decoded COSE key used to cost one allocation per integer).
public enum CBORValue: Sendable, Hashable {
    /// Major type 0: an unsigned integer.
    case unsigned(UInt64)
    /// Major type 1: a negative integer whose value is `-1 - n` (RFC 8949 §3.1).
    case negative(UInt64)
    /// Major type 2: a definite-length byte string.
    case bytes([UInt8])
    /// Major type 3: a definite-length UTF-8 text string.
    case text(String)
    /// Major type 4: a definite-length array.
    case array([CBORValue])
    /// Major type 5: a definite-length map, entries in encoded order.
    case map([CBORMapEntry])
    /// Major type 6: a tag number and the item it tags.
    indirect case tagged(UInt64, CBORValue)
    /// Simple values 20 and 21.
    case bool(Bool)
    /// Simple value 22.
    case null
    /// Simple value 23.
    case undefined
    /// Any other simple value (encoder only: the decoder refuses unassigned simple values).
    case simple(UInt8)
    /// Major type 7 floating-point numbers (half, single and double precision).
    case float(Double)

    /// Looks a key up in a map; `nil` when this is not a map or the key is absent.
    public subscript(key: CBORValue) -> CBORValue? {
        guard case .map(let entries) = self else { return nil }
        return entries.first(where: { $0.key == key })?.value
    }

    /// Looks an integer key up in a map (COSE keys use small integers as labels).
    public subscript(int key: Int) -> CBORValue? {
        // The same test as `self[CBORValue(key)]`: `intValue` is the integer a key of major type 0 or 1 encodes.
        guard case .map(let entries) = self else { return nil }
        for entry in entries where entry.key.intValue == key { return entry.value }
        return nil
    }

    /// Looks a text key up in a map (attestation objects and statements use text labels).
    public subscript(text key: String) -> CBORValue? {
        self[.text(key)]
    }

    /// The integer value when it fits in `Int`; `nil` for anything else.
    public var intValue: Int? {
        switch self {
        case .unsigned(let n):
            return n <= UInt64(Int.max) ? Int(n) : nil
        case .negative(let n):
            // -1 - n fits in Int exactly when n <= Int.max.
            return n <= UInt64(Int.max) ? -1 - Int(n) : nil
        default:
            return nil
        }
    }

    /// The bytes of a byte string; `nil` for anything else.
    public var bytesValue: [UInt8]? {
        if case .bytes(let bytes) = self { return bytes }
        return nil
    }

    /// The text of a text string; `nil` for anything else.
    public var textValue: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// The elements of an array; `nil` for anything else.
    public var arrayValue: [CBORValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The entries of a map in encoded order; `nil` for anything else.
    public var mapEntries: [CBORMapEntry]? {
        if case .map(let entries) = self { return entries }
        return nil
    }
}

extension CBORValue {
    /// The CBOR integer for a Swift integer: major type 0 when non-negative, major type 1 otherwise.
    public init(_ value: Int) {
        if value >= 0 {
            self = .unsigned(UInt64(value))
        } else {
            // -1 - n == value  ⇔  n == -1 - value, which cannot overflow for negative values.
            self = .negative(UInt64(-1 - value))
        }
    }
}
