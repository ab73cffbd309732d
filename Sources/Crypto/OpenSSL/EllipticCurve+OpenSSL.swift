internal import COpenSSL

extension EllipticCurve {
    /// The OpenSSL group name (a static string: OpenSSL keeps the pointer inside OSSL_PARAMs).
    var groupName: StaticString {
        switch self {
        case .p256: "prime256v1"
        case .p384: "secp384r1"
        case .p521: "secp521r1"
        }
    }

    /// The OpenSSL NID.
    var nid: Int32 {
        switch self {
        case .p256: NID_X9_62_prime256v1
        case .p384: NID_secp384r1
        case .p521: NID_secp521r1
        }
    }

    /// The curve for an OpenSSL group name ("prime256v1", "P-256", "secp384r1", …), if supported.
    init?(openSSLGroupName name: String) {
        var nid = OBJ_sn2nid(name)
        if nid == NID_undef { nid = EC_curve_nist2nid(name) }
        guard let curve = EllipticCurve.allCases.first(where: { $0.nid == nid }) else { return nil }
        self = curve
    }

    /// The group order n, cached per curve (used to range-check ECDSA r and s).
    var order: CurveOrder? {
        switch self {
        case .p256: CurveOrder.p256
        case .p384: CurveOrder.p384
        case .p521: CurveOrder.p521
        }
    }
}

/// Owner of a curve's group order as a `BIGNUM`.
final class CurveOrder: @unchecked Sendable {  // immutable after init; BN_cmp only reads the BIGNUM
    /// The owned `BIGNUM *`.
    let pointer: OpaquePointer

    private init?(nid: Int32) {
        guard let group = EC_GROUP_new_by_curve_name(nid) else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        defer { EC_GROUP_free(group) }
        guard let order = EC_GROUP_get0_order(group), let copy = BN_dup(order) else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        pointer = copy
    }

    deinit { BN_free(pointer) }

    static let p256 = CurveOrder(nid: NID_X9_62_prime256v1)
    static let p384 = CurveOrder(nid: NID_secp384r1)
    static let p521 = CurveOrder(nid: NID_secp521r1)

    /// Whether `value` lies in [1, n-1] (SEC 1 v2 §4.1.4 step 1: r and s must be in that range;
    /// r = s = 0 is the "psychic signature", CVE-2022-21449).
    func contains(_ value: OpaquePointer) -> Bool {
        BN_is_zero(value) == 0 && BN_is_negative(value) == 0 && BN_cmp(value, pointer) < 0
    }
}
