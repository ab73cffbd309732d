internal import COpenSSL

/// The modular arithmetic of SRP-6a over OpenSSL's BN (RFC 5054 §2.5–2.6), on big-endian byte strings.
/// Every exponentiation is `BN_mod_exp_mont_consttime` (the exponents b and x are secrets); nothing here is
/// hand-written big-number code. One instance per computation: it owns its `BN_CTX` and the modulus.
final class SRPArithmetic {
    /// The `BN_CTX` scratch space (owned).
    private let context: OpaquePointer
    /// The modulus N.
    private let modulus: BigNumber

    /// Arithmetic modulo `prime` (big-endian, odd: Montgomery multiplication needs an odd modulus).
    init(prime: [UInt8]) throws(CryptoError) {
        guard let context = BN_CTX_new() else { throw OpenSSLErrorQueue.failure(.internalFailure, "BN_CTX_new") }
        self.context = context
        guard let modulus = BigNumber(bigEndian: prime), BN_is_odd(modulus.pointer) == 1 else {
            BN_CTX_free(context)
            throw CryptoError(.internalFailure, "SRP modulus is not an odd number")
        }
        self.modulus = modulus
    }

    deinit { BN_CTX_free(context) }

    /// The RFC 3526 §4 3072-bit MODP prime, big-endian, from OpenSSL's own copy (`BN_get_rfc3526_prime_3072`).
    static func rfc3526Prime3072() throws(CryptoError) -> [UInt8] {
        guard let bn = BN_get_rfc3526_prime_3072(nil) else {
            throw OpenSSLErrorQueue.failure(.internalFailure, "BN_get_rfc3526_prime_3072")
        }
        return BigNumber(taking: bn).bigEndianBytes()
    }

    /// The modulus length in bytes: the width of PAD() (RFC 5054 §2.1).
    var width: Int { Int((BN_num_bits(modulus.pointer) + 7) / 8) }

    /// `value mod N`, minimal big-endian bytes (empty for zero).
    func reduce(_ value: [UInt8]) throws(CryptoError) -> [UInt8] {
        let a = try number(value)
        let result = try fresh()
        let ok = withExtendedLifetime((a, result, modulus)) {
            BN_nnmod(result.pointer, a.pointer, modulus.pointer, context) == 1
        }
        guard ok else { throw OpenSSLErrorQueue.failure(.internalFailure, "BN_nnmod") }
        return result.bigEndianBytes()
    }

    /// Whether `value` is below N (as an unsigned big-endian number).
    func isBelowModulus(_ value: [UInt8]) throws(CryptoError) -> Bool {
        let a = try number(value)
        return withExtendedLifetime((a, modulus)) { BN_cmp(a.pointer, modulus.pointer) < 0 }
    }

    /// `base^exponent mod N`, constant time in the exponent.
    func power(_ base: [UInt8], _ exponent: [UInt8]) throws(CryptoError) -> [UInt8] {
        let a = try number(base)
        let p = try number(exponent)
        let result = try fresh()
        // Every BN stays alive across the C call: `pointer` alone does not keep its owner.
        let ok = withExtendedLifetime((a, p, result, modulus)) {
            BN_mod_exp_mont_consttime(result.pointer, a.pointer, p.pointer, modulus.pointer, context, nil) == 1
        }
        guard ok else { throw OpenSSLErrorQueue.failure(.internalFailure, "BN_mod_exp_mont_consttime") }
        return result.bigEndianBytes()
    }

    /// `(a * b + c) mod N`.
    func multiplyAdd(_ a: [UInt8], _ b: [UInt8], _ c: [UInt8]) throws(CryptoError) -> [UInt8] {
        let x = try number(a)
        let y = try number(b)
        let z = try number(c)
        let product = try fresh()
        let sum = try fresh()
        let step = withExtendedLifetime((x, y, z, product, sum, modulus)) { () -> Int in
            guard BN_mod_mul(product.pointer, x.pointer, y.pointer, modulus.pointer, context) == 1 else { return 1 }
            guard BN_mod_add(sum.pointer, product.pointer, z.pointer, modulus.pointer, context) == 1 else { return 2 }
            return 0
        }
        guard step == 0 else {
            throw OpenSSLErrorQueue.failure(.internalFailure, step == 1 ? "BN_mod_mul" : "BN_mod_add")
        }
        return sum.bigEndianBytes()
    }

    /// `(a * b) mod N`.
    func multiply(_ a: [UInt8], _ b: [UInt8]) throws(CryptoError) -> [UInt8] {
        try multiplyAdd(a, b, [])
    }

    /// `(a - b) mod N`, non-negative.
    func subtract(_ a: [UInt8], _ b: [UInt8]) throws(CryptoError) -> [UInt8] {
        let x = try number(a)
        let y = try number(b)
        let difference = try fresh()
        let ok = withExtendedLifetime((x, y, difference, modulus)) {
            BN_mod_sub(difference.pointer, x.pointer, y.pointer, modulus.pointer, context) == 1
        }
        guard ok else { throw OpenSSLErrorQueue.failure(.internalFailure, "BN_mod_sub") }
        return difference.bigEndianBytes()
    }

    /// `a * b + c` over the integers (no reduction): the client's exponent a + u·x (RFC 5054 §2.6).
    func integerMultiplyAdd(_ a: [UInt8], _ b: [UInt8], _ c: [UInt8]) throws(CryptoError) -> [UInt8] {
        let x = try number(a)
        let y = try number(b)
        let z = try number(c)
        let product = try fresh()
        let sum = try fresh()
        let step = withExtendedLifetime((x, y, z, product, sum)) { () -> Int in
            guard BN_mul(product.pointer, x.pointer, y.pointer, context) == 1 else { return 1 }
            guard BN_add(sum.pointer, product.pointer, z.pointer) == 1 else { return 2 }
            return 0
        }
        guard step == 0 else { throw OpenSSLErrorQueue.failure(.internalFailure, step == 1 ? "BN_mul" : "BN_add") }
        return sum.bigEndianBytes()
    }

    private func number(_ bytes: [UInt8]) throws(CryptoError) -> BigNumber {
        guard let number = BigNumber(bigEndian: bytes) else {
            throw OpenSSLErrorQueue.failure(.internalFailure, "BN_bin2bn")
        }
        return number
    }

    private func fresh() throws(CryptoError) -> BigNumber {
        guard let bn = BN_new() else { throw OpenSSLErrorQueue.failure(.internalFailure, "BN_new") }
        return BigNumber(taking: bn)
    }
}
