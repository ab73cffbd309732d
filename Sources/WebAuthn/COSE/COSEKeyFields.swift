import CBOR

/// What `COSEKey` reads from a COSE_Key map (integer and byte-string values by integer label), over either
/// decoded form: the in-place `CBORIntegerMap` or a general `CBORValue` map. Both answer alike for every
/// map the first can hold.
struct COSEKeyFields {
    private enum Source {
        case map(CBORIntegerMap, bytes: [UInt8])
        case value(CBORValue)
    }

    private let source: Source

    /// Fields of a map read in place from `bytes`.
    init(map: CBORIntegerMap, bytes: [UInt8]) {
        source = .map(map, bytes: bytes)
    }

    /// Fields of a decoded map.
    init(value: CBORValue) {
        source = .value(value)
    }

    /// The integer under `label`; `nil` when absent or not an integer within `Int`.
    func integer(_ label: Int) -> Int? {
        switch source {
        case .map(let map, _):
            guard case .integer(let number) = map[label] else { return nil }
            return number
        case .value(let value):
            return value[int: label]?.intValue
        }
    }

    /// The byte string under `label`; `nil` when absent or not a byte string.
    func bytes(_ label: Int) -> ArraySlice<UInt8>? {
        switch source {
        case .map(let map, let bytes):
            guard case .bytes(let range) = map[label] else { return nil }
            return bytes[range]
        case .value(let value):
            return value[int: label]?.bytesValue?[...]
        }
    }
}
