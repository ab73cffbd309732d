internal import COpenSSL

/// Owner of one `EC_POINT` on a shared `ECGroup`.
final class ECPointObject: @unchecked Sendable {  // filled once by its creator, then only read
    /// The owned `EC_POINT *`.
    let pointer: OpaquePointer

    /// A new point (at infinity) on `group`; `nil` only when OpenSSL cannot allocate it.
    init?(group: ECGroup) {
        guard let point = EC_POINT_new(group.pointer) else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        pointer = point
    }

    deinit { EC_POINT_free(pointer) }
}
