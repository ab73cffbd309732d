internal import COpenSSL

/// The one funnel from OpenSSL failures to `CryptoError`. OpenSSL's error queue is per thread, so
/// this is called right after the failing C call, with no suspension point in between.
enum OpenSSLErrorQueue {
    /// A `CryptoError` for a failed C call; the reason is `what` followed by the drained queue.
    static func failure(
        _ code: CryptoError.Code, _ what: String, file: String = #fileID, line: UInt = #line
    ) -> CryptoError {
        let queued = drain()
        return CryptoError(code, queued.isEmpty ? what : "\(what): \(queued)", file: file, line: line)
    }

    /// Empties the queue where a failure is reported as a plain `false` (signature verification),
    /// so stale entries never leak into a later, unrelated error.
    static func clear() {
        ERR_clear_error()
    }

    /// Pops every queued error and joins their texts.
    static func drain() -> String {
        var texts: [String] = []
        while true {
            let packed = ERR_get_error()
            if packed == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(packed, &buffer, buffer.count)
            texts.append(CStringText.decode(buffer))
        }
        return texts.joined(separator: "; ")
    }
}

/// C string conversions that never read past a buffer.
enum CStringText {
    /// The text before the first NUL of `buffer` (the whole buffer if there is none), as UTF-8.
    static func decode(_ buffer: [CChar]) -> String {
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A pointer to a static C string. OpenSSL keeps some `const char *` arguments by reference
    /// (OSSL_PARAM keys, key type names), so they must point at storage that lives forever.
    static func of(_ text: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
    }
}
