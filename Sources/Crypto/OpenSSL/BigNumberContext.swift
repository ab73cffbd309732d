internal import COpenSSL

/// Owner of one `BN_CTX`, the scratch space of OpenSSL's big-number arithmetic. Passing none makes each
/// call build and free its own (about 0.26 µs of a P-256 point decode on the reference machine), so
/// decoding borrows one from `BigNumberContext.pool`. For public values only: a context keeps the numbers
/// its last borrower computed until the next one overwrites them, so no private-key arithmetic may use one.
final class BigNumberContext: ScratchObject, @unchecked Sendable {  // used by one borrower at a time (ScratchPool)
    /// The owned `BN_CTX *`.
    let pointer: OpaquePointer

    /// A fresh context; `nil` only when OpenSSL cannot allocate it.
    init?() {
        guard let context = BN_CTX_new() else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        pointer = context
    }

    deinit { BN_CTX_free(pointer) }

    /// The shared contexts.
    static let pool = ScratchPool<BigNumberContext>(capacity: 16)

    /// Runs `body` with a pooled context, or with `nil` (OpenSSL then builds its own) when none can be
    /// allocated.
    static func with<Result>(_ body: (OpaquePointer?) -> Result) -> Result {
        pool.withObject(make: { BigNumberContext() }) { context in body(context.pointer) } ?? body(nil)
    }
}
