/// A CBOR map of up to `capacity` entries whose keys are integers and whose values are integers or byte
/// strings, read straight off the encoded bytes: the shape of every COSE_Key WebAuthn uses (RFC 9052 §7,
/// RFC 9053 §7). Nothing is allocated: entries live inline, and byte strings stay ranges of the input.
///
/// This is a fast path beside `CBORDecoder`, never instead of it. `decode` answers `nil` for any input of
/// another shape and for every input the decoder would refuse (truncated, malformed, indefinite-length,
/// duplicate keys, trailing bytes, integers outside `Int`); the caller then runs `CBORDecoder`, which
/// reports the typed error. For each input `decode` accepts, `CBORDecoder.decode` returns the same map
/// (`CBORIntegerMapTests` checks both on every recording and on every prefix and byte flip of them).
public struct CBORIntegerMap: Sendable {
    /// An entry's value.
    public enum Value: Sendable, Equatable {
        /// Major type 0 or 1, within `Int`.
        case integer(Int)
        /// Major type 2, definite length: where its payload lies in the decoded input.
        case bytes(Range<Int>)
    }

    /// The most entries the fast path takes; a COSE_Key has at most 5 for EC2, 4 for RSA.
    public static let capacity = 8

    private var keys = InlineArray<8, Int>(repeating: 0)
    private var values = InlineArray<8, Value>(repeating: .integer(0))
    /// How many entries are set.
    public private(set) var count = 0

    private init() {}

    /// The map encoded by all of `bytes`, or `nil` when `bytes` is not one such map (see the type's comment).
    package static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> CBORIntegerMap? {
        guard case .event(.mapStart(let declared), let head) = LibCBORStream.next(bytes, from: 0),
            declared >= 1, declared <= UInt64(capacity)
        else { return nil }
        var map = CBORIntegerMap()
        var offset = head
        for _ in 0..<Int(declared) {
            guard case .event(let keyEvent, let keyLength) = LibCBORStream.next(bytes, from: offset),
                let key = integer(keyEvent)
            else { return nil }
            offset += keyLength
            // RFC 8949 §5.6: duplicate keys make the map invalid; the decoder names the error.
            for index in 0..<map.count where map.keys[index] == key { return nil }
            guard case .event(let valueEvent, let valueLength) = LibCBORStream.next(bytes, from: offset) else {
                return nil
            }
            offset += valueLength
            let value: Value
            if let number = integer(valueEvent) {
                value = .integer(number)
            } else if case .bytes(let length) = valueEvent {
                value = .bytes((offset - length)..<offset)
            } else {
                return nil
            }
            map.keys[map.count] = key
            map.values[map.count] = value
            map.count += 1
        }
        return offset == bytes.count ? map : nil
    }

    /// The map encoded by all of `bytes`, or `nil` (see `decode(_:)` on a buffer).
    public static func decode(_ bytes: [UInt8]) -> CBORIntegerMap? {
        bytes.withUnsafeBufferPointer { decode($0) }
    }

    /// The value under integer key `key`, if present.
    public subscript(key: Int) -> Value? {
        for index in 0..<count where keys[index] == key { return values[index] }
        return nil
    }

    /// The integer an event carries, when it is one within `Int` (as `CBORValue.intValue`).
    private static func integer(_ event: CBORStreamEvent) -> Int? {
        switch event {
        case .unsigned(let n): n <= UInt64(Int.max) ? Int(n) : nil
        case .negative(let n): n <= UInt64(Int.max) ? -1 - Int(n) : nil
        default: nil
        }
    }
}
