/// An SRP group (RFC 5054 Appendix A): a safe prime N and a generator g, as big-endian bytes.
public struct SRPGroup: Sendable, Hashable {
    /// N, big-endian, without leading zeros.
    public let prime: [UInt8]
    /// g, big-endian, without leading zeros.
    public let generator: [UInt8]

    /// A group from its prime and generator.
    public init(prime: [UInt8], generator: [UInt8]) {
        self.prime = Array(prime.drop { $0 == 0 })
        self.generator = Array(generator.drop { $0 == 0 })
    }

    /// RFC 5054 Appendix A, 3072-bit group: the RFC 3526 §4 MODP prime (OpenSSL's `BN_get_rfc3526_prime_3072`),
    /// g = 5. The group passkeyd's password fallback uses.
    public static func rfc5054Group3072() throws(CryptoError) -> SRPGroup {
        SRPGroup(prime: try SRPArithmetic.rfc3526Prime3072(), generator: [5])
    }

    /// RFC 5054 Appendix A, 1024-bit group, g = 2: only for the Appendix B test vectors (too small for use).
    public static let rfc5054Group1024 = SRPGroup(
        prime: hexBytes(
            "EEAF0AB9ADB38DD69C33F80AFA8FC5E86072618775FF3C0B9EA2314C9C256576D674DF7496EA81D3383B4813D692C6E0E0D5D8E"
                + "250B98BE48E495C1D6089DAD15DC7D7B46154D6B6CE8EF4AD69B15D4982559B297BCF1885C529F566660E57EC68EDBC3C"
                + "05726CC02FD4CBF4976EAA9AFD5138FE8376435B9FC61D2FC0EB06E3"),
        generator: [2])

    /// Bytes of a constant hex string (compile-time constants only).
    private static func hexBytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count - 1, by: 2).map { index in
            UInt8(nibble(digits[index]) << 4 | nibble(digits[index + 1]))
        }
    }

    private static func nibble(_ digit: UInt8) -> UInt8 {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: digit - UInt8(ascii: "a") + 10
        }
    }
}
