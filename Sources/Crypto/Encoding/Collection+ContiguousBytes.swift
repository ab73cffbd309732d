extension Collection<UInt8> {
    /// `body` on these bytes as one contiguous buffer: where they lie for an array, a slice, a native string's UTF-8
    /// or a buffer; copied into an array first for any other collection. How every generic entry point of this
    /// module hands bytes to OpenSSL or to its byte loops. Inlinable, like those entry points, so that a caller in
    /// another module gets a copy specialised to its collection rather than generic dispatch per call.
    @inlinable
    func withContiguousBytes<Answer>(_ body: (UnsafeRawBufferPointer) -> Answer) -> Answer {
        if let answer = withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) { return answer }
        return Array(self).withUnsafeBytes(body)
    }
}
