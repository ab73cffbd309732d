import Testing

@testable import CBOR

@Suite("CBORIntegerMap")
struct CBORIntegerMapTests {
    /// An ES256 COSE_Key (RFC 9053 §7.1.1): kty 2, alg -7, crv 1, x and y of 32 bytes.
    static let ec2Key: [UInt8] = try! CBOREncoder.encode(
        .map([
            CBORMapEntry(key: CBORValue(1), value: CBORValue(2)),
            CBORMapEntry(key: CBORValue(3), value: CBORValue(-7)),
            CBORMapEntry(key: CBORValue(-1), value: CBORValue(1)),
            CBORMapEntry(key: CBORValue(-2), value: .bytes(Array(0..<32))),
            CBORMapEntry(key: CBORValue(-3), value: .bytes(Array(100..<132))),
        ]))

    /// Eight entries, the fast path's capacity, with every integer width and an empty byte string.
    static let widest: [UInt8] = try! CBOREncoder.encode(
        .map([
            CBORMapEntry(key: CBORValue(0), value: CBORValue(23)),
            CBORMapEntry(key: CBORValue(24), value: CBORValue(255)),
            CBORMapEntry(key: CBORValue(256), value: CBORValue(65_536)),
            CBORMapEntry(key: CBORValue(-25), value: CBORValue(Int.max)),
            CBORMapEntry(key: CBORValue(-257), value: CBORValue(Int.min)),
            CBORMapEntry(key: CBORValue(-65_537), value: .bytes([])),
            CBORMapEntry(key: CBORValue(Int.max), value: .bytes([7])),
            CBORMapEntry(key: CBORValue(Int.min), value: CBORValue(-1)),
        ]))

    @Test("a COSE EC2 key reads in place: integers, and byte strings as ranges of the input")
    func ec2() throws {
        let map = try #require(CBORIntegerMap.decode(Self.ec2Key))
        #expect(map.count == 5)
        #expect(map[1] == .integer(2))
        #expect(map[3] == .integer(-7))
        #expect(map[-1] == .integer(1))
        guard case .bytes(let x) = map[-2], case .bytes(let y) = map[-3] else {
            Issue.record("x or y is not a byte string")
            return
        }
        #expect(Array(Self.ec2Key[x]) == Array(0..<32))
        #expect(Array(Self.ec2Key[y]) == Array(100..<132))
        #expect(map[-4] == nil)
        #expect(map[2] == nil)
    }

    @Test("every integer width and the capacity's eight entries")
    func widest() throws {
        let map = try #require(CBORIntegerMap.decode(Self.widest))
        #expect(map.count == CBORIntegerMap.capacity)
        #expect(map[256] == .integer(65_536))
        #expect(map[-25] == .integer(Int.max))
        #expect(map[-257] == .integer(Int.min))
        #expect(map[Int.min] == .integer(-1))
        guard case .bytes(let empty) = map[-65_537], case .bytes(let one) = map[Int.max] else {
            Issue.record("byte strings not read")
            return
        }
        #expect(empty.isEmpty)
        #expect(Array(Self.widest[one]) == [7])
    }

    /// Inputs of other shapes, and inputs the general decoder refuses: the fast path declines them all.
    static let declined: [(String, [UInt8])] = [
        ("empty map", [0xA0]),
        ("not a map", [0x82, 0x01, 0x02]),
        ("text key", [0xA1, 0x61, 0x61, 0x01]),
        ("text value", [0xA1, 0x01, 0x61, 0x61]),
        ("array value", [0xA1, 0x01, 0x81, 0x01]),
        ("map value", [0xA1, 0x01, 0xA1, 0x01, 0x02]),
        ("tagged value", [0xA1, 0x01, 0xC2, 0x41, 0x01]),
        ("float value", [0xA1, 0x01, 0xF9, 0x3C, 0x00]),
        ("boolean value", [0xA1, 0x01, 0xF5]),
        ("null value", [0xA1, 0x01, 0xF6]),
        ("nine entries", [0xA9] + (0..<9).flatMap { [UInt8($0), 0x00] }),
        ("duplicate key", [0xA2, 0x01, 0x02, 0x01, 0x03]),
        ("trailing byte", [0xA1, 0x01, 0x02, 0x00]),
        ("truncated value", [0xA1, 0x01]),
        ("truncated byte string", [0xA1, 0x01, 0x42, 0x00]),
        ("indefinite map", [0xBF, 0x01, 0x02, 0xFF]),
        ("indefinite byte string", [0xA1, 0x01, 0x5F, 0x41, 0x00, 0xFF]),
        ("unsigned value above Int.max", [0xA1, 0x01, 0x1B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
        ("negative key below Int.min", [0xA1, 0x3B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]),
        ("reserved additional information", [0xA1, 0x01, 0x1C]),
    ]

    @Test("other shapes and refused inputs are declined", arguments: declined)
    func declines(_ name: String, _ bytes: [UInt8]) {
        #expect(CBORIntegerMap.decode(bytes) == nil, "\(name)")
    }

    @Test("duplicate keys are declined, and the general decoder names them")
    func duplicates() {
        let bytes: [UInt8] = [0xA2, 0x20, 0x02, 0x20, 0x03]
        #expect(CBORIntegerMap.decode(bytes) == nil)
        #expect(throws: CBORError.self) { try CBORDecoder.decode(bytes) }
    }

    /// Whether `map` holds exactly the entries of the decoder's `value`, in the same order.
    static func same(_ map: CBORIntegerMap, _ value: CBORValue, input: [UInt8]) -> Bool {
        guard let entries = value.mapEntries, entries.count == map.count else { return false }
        for entry in entries {
            guard let key = entry.key.intValue, let read = map[key] else { return false }
            switch read {
            case .integer(let number): guard entry.value.intValue == number else { return false }
            case .bytes(let range): guard entry.value.bytesValue == Array(input[range]) else { return false }
            }
        }
        return true
    }

    @Test("every prefix and every byte value at every position: accepted only where the decoder gives the same map")
    func agreesWithDecoder() {
        for base in [Self.ec2Key, Self.widest] {
            var inputs = (0..<base.count).map { Array(base[..<$0]) }
            for position in base.indices {
                for byte in 0...255 where byte != Int(base[position]) {
                    var changed = base
                    changed[position] = UInt8(byte)
                    inputs.append(changed)
                }
            }
            var accepted = 0
            for input in inputs {
                guard let map = CBORIntegerMap.decode(input) else { continue }
                accepted += 1
                let decoded = try? CBORDecoder.decode(input)
                #expect(decoded.map { Self.same(map, $0, input: input) } == true, "\(input)")
            }
            // Many single-byte changes keep the shape (a changed integer or byte of x); some must be accepted.
            #expect(accepted > base.count)
        }
    }
}
