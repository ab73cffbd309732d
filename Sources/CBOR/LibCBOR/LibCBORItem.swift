internal import CCBOR

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Owns one reference to a libcbor `cbor_item_t` and drops it in `deinit`.
/// Used only to build encodings; nothing else sees the pointer.
final class LibCBORItem {
    let pointer: UnsafeMutablePointer<cbor_item_t>

    /// Takes ownership of a freshly built item (reference count 1); `nil` when libcbor failed to allocate.
    init?(_ pointer: UnsafeMutablePointer<cbor_item_t>?) {
        guard let pointer else { return nil }
        self.pointer = pointer
    }

    deinit {
        cbor_intermediate_decref(pointer)
    }

    /// Builds the libcbor tree for `value`. Containers take their own references to children
    /// (`cbor_array_push`, `cbor_map_add`, `cbor_build_tag` incref), so the children's owners may die.
    static func build(_ value: CBORValue) throws(CBORError) -> LibCBORItem {
        var built: LibCBORItem?
        switch value {
        case .unsigned(let n):
            // Pick the narrowest width: RFC 8949 §4.2.1 preferred (shortest) serialisation.
            if n <= UInt64(UInt8.max) {
                built = LibCBORItem(cbor_build_uint8(UInt8(n)))
            } else if n <= UInt64(UInt16.max) {
                built = LibCBORItem(cbor_build_uint16(UInt16(n)))
            } else if n <= UInt64(UInt32.max) {
                built = LibCBORItem(cbor_build_uint32(UInt32(n)))
            } else {
                built = LibCBORItem(cbor_build_uint64(n))
            }
        case .negative(let n):
            if n <= UInt64(UInt8.max) {
                built = LibCBORItem(cbor_build_negint8(UInt8(n)))
            } else if n <= UInt64(UInt16.max) {
                built = LibCBORItem(cbor_build_negint16(UInt16(n)))
            } else if n <= UInt64(UInt32.max) {
                built = LibCBORItem(cbor_build_negint32(UInt32(n)))
            } else {
                built = LibCBORItem(cbor_build_negint64(n))
            }
        case .bytes(let bytes):
            built = bytes.withUnsafeBufferPointer { LibCBORItem(cbor_build_bytestring($0.baseAddress, $0.count)) }
        case .text(let text):
            var utf8 = Array(text.utf8)
            built = utf8.withUnsafeMutableBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { LibCBORItem(cbor_build_stringn($0.baseAddress, $0.count)) }
            }
        case .array(let elements):
            guard let array = LibCBORItem(cbor_new_definite_array(elements.count)) else { break }
            for element in elements {
                let child = try build(element)
                guard cbor_array_push(array.pointer, child.pointer) else {
                    throw CBORError(.encodingFailed, "cbor_array_push failed")
                }
            }
            return array
        case .map(let entries):
            guard let map = LibCBORItem(cbor_new_definite_map(entries.count)) else { break }
            for entry in entries {
                let key = try build(entry.key)
                let value = try build(entry.value)
                guard cbor_map_add(map.pointer, cbor_pair(key: key.pointer, value: value.pointer)) else {
                    throw CBORError(.encodingFailed, "cbor_map_add failed")
                }
            }
            return map
        case .tagged(let number, let inner):
            let child = try build(inner)
            built = LibCBORItem(cbor_build_tag(number, child.pointer))
        case .bool(let flag):
            built = LibCBORItem(cbor_build_bool(flag))
        case .null:
            built = LibCBORItem(cbor_build_ctrl(22))  // RFC 8949 §3.3: simple value 22 is null
        case .undefined:
            built = LibCBORItem(cbor_build_ctrl(23))  // simple value 23 is undefined
        case .simple(let code):
            built = LibCBORItem(cbor_build_ctrl(code))
        case .float(let number):
            built = LibCBORItem(cbor_build_float8(number))
        }
        guard let built else { throw CBORError(.encodingFailed, "libcbor could not allocate an item") }
        return built
    }

    /// Serialises the tree (`cbor_serialize_alloc`), copying the bytes out and freeing libcbor's buffer.
    func serialized() throws(CBORError) -> [UInt8] {
        var buffer: UnsafeMutablePointer<UInt8>?
        var capacity = 0
        let length = cbor_serialize_alloc(pointer, &buffer, &capacity)
        defer { free(buffer) }
        guard let buffer, length > 0 else { throw CBORError(.encodingFailed, "cbor_serialize_alloc failed") }
        return Array(UnsafeBufferPointer(start: buffer, count: length))
    }
}
