internal import CCBOR

/// The only caller of libcbor's decoder. `cbor_stream_decode` is stateless and allocates nothing:
/// it reads one head (plus a definite string's payload, only once all of it is present) and calls
/// back. Declared container sizes therefore never reach an allocator before the Swift side has
/// checked them against the input size, and neither does this file: a string is reported by its length
/// (its payload ends the bytes the head consumed), and the caller decides whether to copy it.
enum LibCBORStream {
    /// Decodes the head starting at `offset` in `buffer`.
    static func next(_ buffer: UnsafeBufferPointer<UInt8>, from offset: Int) -> CBORStreamStep {
        guard let base = buffer.baseAddress, offset >= 0, offset < buffer.count else { return .truncated }
        var event: CBORStreamEvent?
        let result = withUnsafeMutablePointer(to: &event) { eventPointer in
            cbor_stream_decode(base + offset, buffer.count - offset, Self.callbacks, eventPointer)
        }
        switch result.status {
        case CBOR_DECODER_FINISHED:
            // FINISHED with no callback cannot happen for a well-formed head; treat it as malformed. A string's
            // payload lies inside what was read (libcbor reports a definite string only once all of it is).
            guard let event, result.read > 0, result.read <= buffer.count - offset else { return .malformed }
            switch event {
            case .bytes(let count), .text(let count):
                guard count >= 0, count < result.read else { return .malformed }
            default: break
            }
            return .event(event, consumed: result.read)
        case CBOR_DECODER_NEDATA:
            return .truncated
        default:
            return .malformed
        }
    }

    /// The callback bundle.
    /// `size_t` imports as `Int`: counts are reinterpreted as unsigned, since libcbor may pass 2^64-1.
    /// libcbor's naming is inverted for strings: `byte_string`/`string` are the definite forms,
    /// `byte_string_start`/`string_start` the indefinite ones; `array_start`/`map_start` are definite.
    ///
    /// Built once into memory that is never written again or freed, and passed by pointer: handing libcbor
    /// the struct itself made Swift copy its 25 function pointers onto the stack for every head, a third of
    /// what decoding a COSE key cost. `nonisolated(unsafe)` only because `UnsafePointer` is not `Sendable`;
    /// every thread reads the same immutable table.
    nonisolated(unsafe) private static let callbacks: UnsafePointer<cbor_callbacks> = {
        var c = cbor_empty_callbacks
        c.uint8 = { ctx, v in record(ctx, .unsigned(UInt64(v))) }
        c.uint16 = { ctx, v in record(ctx, .unsigned(UInt64(v))) }
        c.uint32 = { ctx, v in record(ctx, .unsigned(UInt64(v))) }
        c.uint64 = { ctx, v in record(ctx, .unsigned(v)) }
        c.negint8 = { ctx, v in record(ctx, .negative(UInt64(v))) }
        c.negint16 = { ctx, v in record(ctx, .negative(UInt64(v))) }
        c.negint32 = { ctx, v in record(ctx, .negative(UInt64(v))) }
        c.negint64 = { ctx, v in record(ctx, .negative(v)) }
        c.byte_string = { ctx, _, count in record(ctx, .bytes(count: count)) }
        c.byte_string_start = { ctx in record(ctx, .indefinite) }
        c.string = { ctx, _, count in record(ctx, .text(count: count)) }
        c.string_start = { ctx in record(ctx, .indefinite) }
        c.array_start = { ctx, count in record(ctx, .arrayStart(UInt64(UInt(bitPattern: count)))) }
        c.indef_array_start = { ctx in record(ctx, .indefinite) }
        c.map_start = { ctx, count in record(ctx, .mapStart(UInt64(UInt(bitPattern: count)))) }
        c.indef_map_start = { ctx in record(ctx, .indefinite) }
        c.tag = { ctx, v in record(ctx, .tag(v)) }
        c.float2 = { ctx, v in record(ctx, .float(Double(v))) }
        c.float4 = { ctx, v in record(ctx, .float(Double(v))) }
        c.float8 = { ctx, v in record(ctx, .float(v)) }
        c.undefined = { ctx in record(ctx, .undefined) }
        c.null = { ctx in record(ctx, .null) }
        c.boolean = { ctx, v in record(ctx, .bool(v)) }
        c.indef_break = { ctx in record(ctx, .indefinite) }
        let table = UnsafeMutablePointer<cbor_callbacks>.allocate(capacity: 1)
        table.initialize(to: c)
        return UnsafePointer(table)
    }()
}

/// Stores the event reported by a callback into the caller's `CBORStreamEvent?` context.
private func record(_ context: UnsafeMutableRawPointer?, _ event: CBORStreamEvent) {
    guard let context else { return }
    context.assumingMemoryBound(to: CBORStreamEvent?.self).pointee = event
}
