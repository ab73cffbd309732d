import Foundation
import Testing

@testable import Crypto

@Suite("ECDSASignatureCodec")
struct ECDSASignatureCodecTests {
    /// Whether the byte-level check and the OpenSSL round-trip check agree on `der`.
    static func agree(_ der: [UInt8], _ curve: EllipticCurve) -> Bool {
        ECDSASignatureCodec.isStrictDER(der, curve: curve)
            == (ECDSASignatureCodec.parseStrict(der, curve: curve) != nil)
    }

    @Test(
        "isStrictDER agrees with parseStrict on every Wycheproof signature",
        arguments: ECPublicKeyTests.wycheproofFiles.map { ($0.0, $0.1) })
    func wycheproof(file: String, curve: EllipticCurve) throws {
        let vectors = try WycheproofFile.load(file)
        var checked = 0
        for group in vectors.testGroups {
            for test in group.tests {
                let der = Hex.decode(test.sig)
                #expect(Self.agree(der, curve), "tcId \(test.tcId): \(test.comment)")
                checked += 1
            }
        }
        #expect(checked == vectors.numberOfTests)
    }

    @Test("isStrictDER agrees with parseStrict on every prefix, single-byte flip and extension of a valid signature")
    func mutations() throws {
        let der = try P256SigningKey().signature(for: [1, 2, 3])
        #expect(ECDSASignatureCodec.isStrictDER(der, curve: .p256))
        for length in 0..<der.count { #expect(Self.agree(Array(der[..<length]), .p256)) }
        for index in der.indices {
            for flip: UInt8 in [0x01, 0x80, 0xFF] {
                var mutated = der
                mutated[index] ^= flip
                #expect(Self.agree(mutated, .p256), "byte \(index) ^ \(flip)")
            }
        }
        #expect(Self.agree(der + [0], .p256))
        #expect(Self.agree(der, .p384))
    }

    /// P-256's group order n (SEC 2 v2 §2.4.2).
    static let p256Order: [UInt8] = Hex.decode("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")

    @Test(
        "hand-built encodings: zero, n, n-1, negative, padded and long-form lengths",
        arguments: [
            ("3006020100020101", false),  // r = 0
            ("3006020101020101", true),  // r = s = 1
            ("30060201ff020101", false),  // r negative
            ("300702020001020101", false),  // r with a needless leading zero
            ("3081060201010201 01", false),  // long-form length below 0x80
            ("300602810101020101", false),  // long-form integer length
            ("3006020101020101" + "00", false),  // trailing byte
            ("3005020101020101", false),  // SEQUENCE length too short
        ])
    func handBuilt(text: String, valid: Bool) {
        let der = Hex.decode(text.replacingOccurrences(of: " ", with: ""))
        #expect(ECDSASignatureCodec.isStrictDER(der, curve: .p256) == valid)
        #expect(Self.agree(der, .p256))
    }

    @Test("s = n is refused and s = n - 1 accepted, as by parseStrict")
    func orderBoundary() {
        var nMinusOne = Self.p256Order
        nMinusOne[nMinusOne.count - 1] -= 1
        for (s, valid) in [(Self.p256Order, false), (nMinusOne, true)] {
            let der: [UInt8] = [0x30, 0x26, 0x02, 0x01, 0x01, 0x02, 0x21, 0x00] + s
            #expect(ECDSASignatureCodec.isStrictDER(der, curve: .p256) == valid)
            #expect(Self.agree(der, .p256))
        }
    }
}
