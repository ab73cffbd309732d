import Synchronization

/// The OpenSSL keys of an `ECPublicKey`, each built on first use and then kept. A validated point is all
/// a key needs to be compared, stored or re-encoded; only verification needs an `EC_KEY`, and only DER
/// export an `EVP_PKEY`. A registration with `none` attestation never verifies with the credential key.
final class LazyECKey: Sendable {
    /// The validated point's group.
    private let group: ECGroup
    /// The uncompressed point, already validated on `group`.
    private let point: [UInt8]
    /// `point` as validation decoded it.
    private let decoded: ECPointObject
    /// The verification key once built (`nil` before first use).
    private let verification = Mutex<ECKeyObject?>(nil)
    /// The `EVP_PKEY` once built (`nil` before first use).
    private let envelope = Mutex<EVPKey?>(nil)

    /// Holds a point that passed `ECGroup.validatedPoint`, with what it returned.
    init(group: ECGroup, encoded: [UInt8], decoded: ECPointObject) {
        self.group = group
        self.point = encoded
        self.decoded = decoded
    }

    /// The key ECDSA verification runs on, built on first call; `nil` only if OpenSSL could not allocate it.
    var verificationKey: ECKeyObject? {
        verification.withLock { cached in
            if let cached { return cached }
            let key = ECKeyObject(group: group, validatedPoint: decoded)
            cached = key
            return key
        }
    }

    /// The key as an `EVP_PKEY` (for DER export), built on first call; `nil` only if OpenSSL could not
    /// allocate it.
    var key: EVPKey? {
        envelope.withLock { cached in
            if let cached { return cached }
            let key = try? group.publicKey(point: point)
            cached = key
            return key
        }
    }
}
