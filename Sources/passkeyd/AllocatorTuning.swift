import Service

#if canImport(Glibc)
    import Glibc
#endif

/// Process-wide malloc settings for the long-running server (not applied in tests or one-shot commands).
///
/// glibc gives the free top of a heap back to the kernel (`madvise(MADV_DONTNEED)`, then a TLB shootdown on
/// every core) as soon as it exceeds the trim threshold, 128 KiB by default. SQLite allocates and frees a
/// savepoint's page bitmaps in every write body, which crosses that threshold on the writer thread again and
/// again: under a login load that returning and refaulting of memory cost about 4% of the server's CPU.
/// A larger fixed threshold keeps those pages in the process; peak memory use is unchanged.
package enum AllocatorTuning {
    /// Free heap top kept before glibc trims it (bytes).
    package static let trimThreshold: Int32 = 16 << 20
    /// Allocations from this size up get their own mapping (and an munmap with a TLB shootdown when freed).
    /// Setting the trim threshold turns glibc's adaptive mmap threshold off, so it is fixed here, above any
    /// buffer a request needs (bodies are at most `http.max_body_bytes`, 64 KiB by default).
    package static let mmapThreshold: Int32 = 1 << 20

    /// `M_TRIM_THRESHOLD` and `M_MMAP_THRESHOLD` from glibc's <malloc.h> (part of its stable ABI).
    private static let trimThresholdParameter: Int32 = -1
    private static let mmapThresholdParameter: Int32 = -3

    /// Applies the settings; a failure leaves glibc's defaults, which are correct, only slower.
    package static func apply() {
        #if canImport(Glibc)
            // <malloc.h> is not part of Swift's Glibc module, so `mallopt` is looked up at run time; a libc
            // without it (musl) simply keeps its own behaviour.
            typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
            let mallopt = unsafeBitCast(symbol, to: MallOpt.self)
            _ = mallopt(trimThresholdParameter, trimThreshold)
            _ = mallopt(mmapThresholdParameter, mmapThreshold)
        #endif
    }
}
