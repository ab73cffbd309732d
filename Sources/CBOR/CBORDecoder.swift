/// Decodes CBOR (RFC 8949) into `CBORValue` through libcbor's allocation-free streaming decoder.
///
/// Only the subset WebAuthn allows is accepted (WebAuthn L3 §6.5 and CTAP2 §8 "canonical CBOR"):
/// definite lengths only, no duplicate map keys, well-formed UTF-8 text. Every declared count is
/// checked against the bytes that remain before any storage is reserved for it, so a hostile
/// length costs nothing.
public enum CBORDecoder {
    /// Resource bounds applied while decoding.
    public struct Limits: Sendable {
        /// Deepest nesting of arrays, maps and tags (the top-level container is depth 1).
        public var maxDepth = 16
        /// Most data items (every head counts, containers included) in one input.
        public var maxItems = 16_384

        /// The defaults: depth 16, 16 384 items.
        public init() {}
    }

    /// Decodes exactly one data item that spans all of `bytes`.
    /// - Throws: `CBORError` with `.trailingBytes` when bytes follow the item, or any decoding code.
    public static func decode(_ bytes: [UInt8], limits: Limits = .init()) throws(CBORError) -> CBORValue {
        let (value, consumed) = try decodePrefix(bytes[...], limits: limits)
        guard consumed == bytes.count else {
            throw CBORError(.trailingBytes, "\(bytes.count - consumed) bytes follow the top-level item")
        }
        return value
    }

    /// Decodes the data item at the start of `bytes` and reports how many bytes it used, so callers
    /// can find what follows it (the credential public key inside authenticator data, WebAuthn L3 §6.5.1).
    public static func decodePrefix(
        _ bytes: ArraySlice<UInt8>,
        limits: Limits = .init()
    ) throws(CBORError) -> (value: CBORValue, bytesConsumed: Int) {
        let outcome = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(CBORError) in try decodeItem(buffer, limits: limits) }
        }
        return try outcome.get()
    }

    /// A container still waiting for elements: its kind, how many items it needs (a map needs a key and a
    /// value per entry) and where its first item sits on the shared value stack.
    private struct Frame {
        enum Kind {
            case array, map
            case tag(UInt64)
        }

        let kind: Kind
        let expected: Int
        let start: Int
    }

    /// Decodes one item iteratively (no recursion, so no input can exhaust the thread's stack). Finished
    /// items wait on one shared value stack until their container is complete, then move into it once:
    /// no container array is copied while it grows.
    private static func decodeItem(
        _ buffer: UnsafeBufferPointer<UInt8>,
        limits: Limits
    ) throws(CBORError) -> (value: CBORValue, bytesConsumed: Int) {
        var frames: [Frame] = []
        var values: [CBORValue] = []
        // Room for a COSE key or an attestation object's top level without regrowing on every append.
        frames.reserveCapacity(4)
        values.reserveCapacity(16)
        var offset = 0
        var items = 0
        while true {
            let (event, consumed) = try nextEvent(buffer, at: offset)
            offset += consumed
            items += 1
            guard items <= limits.maxItems else {
                throw CBORError(.tooLarge, "more than \(limits.maxItems) data items")
            }
            let remaining = buffer.count - offset
            var completed: CBORValue?
            switch event {
            case .unsigned(let n): completed = .unsigned(n)
            case .negative(let n): completed = .negative(n)
            case .bytes(let count): completed = .bytes(Array(buffer[(offset - count)..<offset]))
            case .text(let count):
                // RFC 8949 §3.1 major type 3: text strings are UTF-8; invalid sequences are not well-formed.
                guard let text = String(validating: buffer[(offset - count)..<offset], as: UTF8.self) else {
                    throw CBORError(.invalidUTF8, "text string at offset \(offset - consumed) is not UTF-8")
                }
                completed = .text(text)
            case .float(let value): completed = .float(value)
            case .bool(let value): completed = .bool(value)
            case .null: completed = .null
            case .undefined: completed = .undefined
            case .indefinite:
                // CTAP2 canonical CBOR (WebAuthn L3 §6.5.2 footnote): indefinite lengths are forbidden.
                throw CBORError(.indefiniteLength, "indefinite-length item at offset \(offset - consumed)")
            case .arrayStart(let declared):
                try checkDeclared(declared, perEntry: 1, remaining: remaining, limits)
                let count = Int(declared)
                if count == 0 {
                    completed = .array([])
                } else {
                    try checkDepth(frames.count, limits)
                    frames.append(Frame(kind: .array, expected: count, start: values.count))
                }
            case .mapStart(let declared):
                try checkDeclared(declared, perEntry: 2, remaining: remaining, limits)
                let count = Int(declared)
                if count == 0 {
                    completed = .map([])
                } else {
                    try checkDepth(frames.count, limits)
                    frames.append(Frame(kind: .map, expected: 2 * count, start: values.count))
                }
            case .tag(let number):
                try checkDepth(frames.count, limits)
                frames.append(Frame(kind: .tag(number), expected: 1, start: values.count))
            }
            // Fold the finished item into its parents, closing every container it completes.
            while let value = completed {
                guard let parent = frames.last else { return (value, offset) }
                values.append(value)
                completed = nil
                guard values.count - parent.start == parent.expected else { break }
                frames.removeLast()
                switch parent.kind {
                case .array:
                    completed = .array(Array(values[parent.start...]))
                    values.removeSubrange(parent.start...)
                case .map:
                    // Moved off the end of the value stack (no copies), then put back in encoded order.
                    var entries: [CBORMapEntry] = []
                    entries.reserveCapacity(parent.expected / 2)
                    while values.count > parent.start {
                        let value = values.removeLast()
                        entries.append(CBORMapEntry(key: values.removeLast(), value: value))
                    }
                    entries.reverse()
                    try checkUniqueKeys(entries)
                    completed = .map(entries)
                case .tag(let number):
                    completed = .tagged(number, values.removeLast())
                }
            }
        }
    }

    private static func nextEvent(
        _ buffer: UnsafeBufferPointer<UInt8>,
        at offset: Int
    ) throws(CBORError) -> (CBORStreamEvent, Int) {
        switch LibCBORStream.next(buffer, from: offset) {
        case .event(let event, let consumed):
            return (event, consumed)
        case .truncated:
            throw CBORError(.truncated, "input ends inside the item at offset \(offset)")
        case .malformed:
            throw CBORError(.malformed, "not well-formed CBOR at offset \(offset)")
        }
    }

    /// Checks a container's declared count before anything is reserved for it: every element takes
    /// at least one byte (a map entry two), so a count the remaining input cannot hold means the input
    /// ends early; a count above the item limit is refused outright.
    private static func checkDeclared(
        _ declared: UInt64,
        perEntry: UInt64,
        remaining: Int,
        _ limits: Limits
    ) throws(CBORError) {
        guard declared <= UInt64(max(limits.maxItems, 0)) else {
            throw CBORError(.tooLarge, "container declares \(declared) entries, limit is \(limits.maxItems)")
        }
        guard declared * perEntry <= UInt64(remaining) else {
            throw CBORError(.truncated, "container declares \(declared) entries, \(remaining) bytes remain")
        }
    }

    private static func checkDepth(_ openContainers: Int, _ limits: Limits) throws(CBORError) {
        guard openContainers < limits.maxDepth else {
            throw CBORError(.depthExceeded, "nesting deeper than \(limits.maxDepth)")
        }
    }

    /// Key equality with the integer cases compared directly (every COSE label), the rest by `==`.
    private static func sameKey(_ a: CBORValue, _ b: CBORValue) -> Bool {
        switch (a, b) {
        case (.unsigned(let x), .unsigned(let y)), (.negative(let x), .negative(let y)): x == y
        case (.unsigned, .negative), (.negative, .unsigned): false
        default: a == b
        }
    }

    /// RFC 8949 §5.6: a map with duplicate keys is not valid; CTAP2 canonical form forbids it too.
    private static func checkUniqueKeys(_ entries: [CBORMapEntry]) throws(CBORError) {
        if entries.count <= 16 {
            // Small maps (COSE keys, attestation objects): pairwise comparison beats hashing.
            for i in entries.indices {
                for j in entries.indices where j > i && sameKey(entries[i].key, entries[j].key) {
                    throw CBORError(.duplicateMapKey, "map key \(entries[i].key) appears twice")
                }
            }
            return
        }
        var seen = Set<CBORValue>(minimumCapacity: entries.count)
        for entry in entries {
            guard seen.insert(entry.key).inserted else {
                throw CBORError(.duplicateMapKey, "map key \(entry.key) appears twice")
            }
        }
    }
}
