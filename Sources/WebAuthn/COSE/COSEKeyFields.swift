import CBOR

/// What `COSEKey` reads from a COSE_Key map: integer and byte-string values by integer label. Two forms
/// conform, the in-place `CBORIntegerMap` and a general `CBORValue` map, and answer alike for every map the
/// first can hold; `COSEKey`'s checks are generic over them, so each form gets its own specialised copy
/// (no enum of both to copy through value witnesses per key).
protocol COSEKeyFields {
    /// The integer under `label`; `nil` when absent or not an integer within `Int`.
    func integer(_ label: Int) -> Int?
    /// The byte string under `label`; `nil` when absent or not a byte string.
    func bytes(_ label: Int) -> ArraySlice<UInt8>?
}

/// Fields of a map read in place from `bytes` (`CBORIntegerMap`).
struct InPlaceCOSEKeyFields: COSEKeyFields {
    let map: CBORIntegerMap
    let bytes: [UInt8]

    func integer(_ label: Int) -> Int? {
        guard case .integer(let number) = map[label] else { return nil }
        return number
    }

    func bytes(_ label: Int) -> ArraySlice<UInt8>? {
        guard case .bytes(let range) = map[label] else { return nil }
        return bytes[range]
    }
}

/// Fields of a map `CBORDecoder` decoded.
struct DecodedCOSEKeyFields: COSEKeyFields {
    let value: CBORValue

    func integer(_ label: Int) -> Int? {
        value[int: label]?.intValue
    }

    func bytes(_ label: Int) -> ArraySlice<UInt8>? {
        value[int: label]?.bytesValue?[...]
    }
}
