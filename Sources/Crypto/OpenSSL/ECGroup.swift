internal import COpenSSL
import Synchronization

/// Owner of one curve's `EC_GROUP` and of a parameters-only `EVP_PKEY` on that curve, built once per
/// curve. Building a key through `EVP_PKEY_fromdata` constructs a fresh group every time (Montgomery
/// set-up, generator, order: about 24 µs for P-256 on the reference machine); validating a point against
/// this group and copying the parameters of the template key costs a fraction of that.
final class ECGroup: @unchecked Sendable {  // immutable; OpenSSL only reads the const EC_GROUP and template
    /// The owned `EC_GROUP *`.
    let pointer: OpaquePointer
    /// A key on this group, the source of `EVP_PKEY_copy_parameters`.
    private let parameters: EVPKey
    /// The field prime p as `coordinateByteCount` big-endian bytes (SEC 1 v2 §2.3.5 field element width).
    private let primeBytes: [UInt8]
    /// The curve.
    let curve: EllipticCurve
    /// Idle verification keys on this group (`ECKeyObject` says why they are reused), at most
    /// `idleVerificationKeyLimit`: as many as verifications ran at once. Not thread-local: the cooperative pool's
    /// threads come and go, and a key parked in a dead thread's storage would leak.
    private let idleVerificationKeys = Mutex<[ECKeyObject]>([])
    /// The most idle verification keys kept.
    static let idleVerificationKeyLimit = 16

    private init?(_ curve: EllipticCurve) {
        guard let group = EC_GROUP_new_by_curve_name(curve.nid) else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        let width = curve.coordinateByteCount
        var prime = [UInt8](repeating: 0, count: width)
        guard let field = EC_GROUP_get0_field(group),
            BN_bn2binpad(field, &prime, Int32(width)) == Int32(width),
            let parameters = Self.parametersKey(curve, group: group)
        else {
            OpenSSLErrorQueue.clear()
            EC_GROUP_free(group)
            return nil
        }
        self.pointer = group
        self.parameters = parameters
        self.primeBytes = prime
        self.curve = curve
    }

    deinit { EC_GROUP_free(pointer) }

    private static let p256 = ECGroup(.p256)
    private static let p384 = ECGroup(.p384)
    private static let p521 = ECGroup(.p521)

    /// The shared group of `curve`; `nil` only if OpenSSL could not build it at start-up.
    static func of(_ curve: EllipticCurve) -> ECGroup? {
        switch curve {
        case .p256: p256
        case .p384: p384
        case .p521: p521
        }
    }

    /// A key on `curve` whose group parameters `EVP_PKEY_copy_parameters` copies: the generator as a
    /// public key, built once through the general `EVP_PKEY_fromdata` path.
    private static func parametersKey(_ curve: EllipticCurve, group: OpaquePointer) -> EVPKey? {
        guard let generator = EC_GROUP_get0_generator(group) else { return nil }
        let length = EC_POINT_point2oct(group, generator, POINT_CONVERSION_UNCOMPRESSED, nil, 0, nil)
        guard length == 1 + 2 * curve.coordinateByteCount else { return nil }
        var encoded = [UInt8](repeating: 0, count: length)
        guard EC_POINT_point2oct(group, generator, POINT_CONVERSION_UNCOMPRESSED, &encoded, length, nil) == length
        else { return nil }
        return try? EVPKey.ecPublicKeyFromData(curve: curve, point: encoded)
    }

    /// SEC 1 v2 §3.2.2.1 elliptic curve public key validation of an uncompressed point `04 || X || Y`
    /// (the caller has checked the prefix and length), decoding it into `ecPoint` (an `EC_POINT` on this
    /// group): step 1, Q is not the point at infinity; step 2, X and Y are field elements in [0, p-1]; step 3,
    /// Q is on the curve. Step 4 (nQ = O) holds for every point on the curve because P-256, P-384 and P-521
    /// have cofactor 1.
    /// - Returns: whether the point passed; `ecPoint` then holds it, for the key built on it to keep.
    func decodeValidated(_ point: [UInt8], into ecPoint: OpaquePointer) -> Bool {
        let width = curve.coordinateByteCount
        guard point.count == 1 + 2 * width else { return false }
        // Step 2, on the bytes: equal-width big-endian strings compare like the numbers they encode.
        let x = point[1...width]
        let y = point[(1 + width)...]
        guard x.lexicographicallyPrecedes(primeBytes), y.lexicographicallyPrecedes(primeBytes) else { return false }
        // Step 3 is inside EC_POINT_oct2point: it sets the point through EC_POINT_set_affine_coordinates, which
        // refuses a point off the curve (EC_R_POINT_IS_NOT_ON_CURVE, OpenSSL ≥ 1.1.1); COSEKeyTests and
        // DevicePublicKeyTests hold off-curve points that must fail here.
        let valid = point.withUnsafeBufferPointer { bytes in
            EC_POINT_oct2point(pointer, ecPoint, bytes.baseAddress, bytes.count, nil) == 1
                && EC_POINT_is_at_infinity(pointer, ecPoint) == 0  // step 1
        }
        if !valid { OpenSSLErrorQueue.clear() }
        return valid
    }

    /// ECDSA verification (SEC 1 v2 §4.1.4) under `point`, which passed `decodeValidated`, on a borrowed key;
    /// `false` also when OpenSSL cannot allocate a key.
    func verify(_ signature: OpaquePointer, message: [UInt8], hash: HashAlgorithm, publicKey point: OpaquePointer)
        -> Bool
    {
        guard let key = idleVerificationKeys.withLock({ $0.popLast() }) ?? ECKeyObject(group: self) else {
            return false
        }
        let verified = key.verify(signature, message: message, hash: hash, publicKey: point)
        idleVerificationKeys.withLock { idle in
            if idle.count < Self.idleVerificationKeyLimit { idle.append(key) }
        }
        return verified
    }

    /// How many verification keys are idle (for tests).
    var idleVerificationKeyCount: Int { idleVerificationKeys.withLock { $0.count } }

    /// An `EVP_PKEY` for a point that passed `decodeValidated`: a copy of the template's group
    /// parameters plus the encoded point (`EVP_PKEY_set1_encoded_public_key` decodes it on this group).
    func publicKey(point: [UInt8]) throws(CryptoError) -> EVPKey {
        guard let pkey = EVP_PKEY_new() else { throw OpenSSLErrorQueue.failure(.internalFailure, "EVP_PKEY_new") }
        let key = EVPKey(taking: pkey)
        guard EVP_PKEY_copy_parameters(pkey, parameters.pointer) == 1 else {
            throw OpenSSLErrorQueue.failure(.internalFailure, "EVP_PKEY_copy_parameters")
        }
        let set = point.withUnsafeBufferPointer { bytes in
            EVP_PKEY_set1_encoded_public_key(pkey, bytes.baseAddress, bytes.count)
        }
        guard set == 1 else {
            throw OpenSSLErrorQueue.failure(.invalidKey, "EC point is not a valid public key on \(curve)")
        }
        return key
    }
}
