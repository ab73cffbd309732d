internal import COpenSSL

/// Owner of one public-only `EC_KEY`, the key ECDSA verification runs on (COpenSSL's shim says why it
/// is not an `EVP_PKEY`).
final class ECKeyObject: @unchecked Sendable {  // immutable after init; ECDSA_do_verify only reads the key
    /// The owned `EC_KEY *`.
    private let pointer: OpaquePointer

    /// A key on `group` holding a copy of `point`, which `ECGroup.validatedPoint` decoded and validated;
    /// `nil` only when OpenSSL cannot allocate it.
    init?(group: ECGroup, validatedPoint point: ECPointObject) {
        guard let key = COpenSSL_ec_key_new_public(group.pointer, point.pointer) else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        pointer = key
    }

    deinit { COpenSSL_ec_key_free(pointer) }

    /// ECDSA verification (SEC 1 v2 §4.1.4) of `signature` over `message` hashed with `hash`. The
    /// signature is already strictly decoded, r and s in range (`ECDSASignatureCodec.parseStrict`).
    func verify(_ signature: ECDSASignatureObject, message: [UInt8], hash: HashAlgorithm) -> Bool {
        let method = MessageDigestMethod.of(hash)
        return withUnsafeTemporaryAllocation(byteCount: 64, alignment: 8) { digest in
            let length = method.digest(message, into: digest)
            let verified =
                COpenSSL_ecdsa_do_verify(
                    digest.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(length), signature.pointer, pointer)
                == 1
            if !verified { OpenSSLErrorQueue.clear() }
            return verified
        }
    }
}
