import Foundation
import Testing

import TestSupport
@testable import Crypto

@Suite("ECDSASignatureCodec")
struct ECDSASignatureCodecTests {
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
        #expect((ECDSASignatureCodec.parseStrict(der, curve: .p256) != nil) == valid)
    }

    @Test("s = n is refused and s = n - 1 accepted (SEC 1 v2 §4.1.4 step 1)")
    func orderBoundary() {
        var nMinusOne = Self.p256Order
        nMinusOne[nMinusOne.count - 1] -= 1
        for (s, valid) in [(Self.p256Order, false), (nMinusOne, true)] {
            let der: [UInt8] = [0x30, 0x26, 0x02, 0x01, 0x01, 0x02, 0x21, 0x00] + s
            #expect((ECDSASignatureCodec.parseStrict(der, curve: .p256) != nil) == valid)
        }
    }
}
