import Foundation
import TestSupport
import Testing

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

    /// Whether `text` (hex, spaces ignored) is a strict DER signature for `curve`.
    static func isStrict(_ text: String, curve: EllipticCurve = .p256) -> Bool {
        ECDSASignatureCodec.parseStrict(Hex.decode(text.replacingOccurrences(of: " ", with: "")), curve: curve) != nil
    }

    /// A P-521 `ECDSA-Sig-Value` with r = s = 2^520 (66 content bytes each), whose SEQUENCE length (136) is
    /// above 127 and so takes DER's long form `81 88` (X.690 §8.1.3.5, §10.1); `length` spells that length.
    static func p521Signature(sequenceLength length: String) -> String {
        let integer = "02 42 01" + String(repeating: "00", count: 65)
        return "30 \(length) \(integer) \(integer)"
    }

    // Why no input tells the byte comparison apart from the length comparison it replaced, so the tests below
    // pin the non-canonical spellings instead: BER, like DER, spells an INTEGER's content in one way (X.690
    // §8.3.2: no leading 0x00 or 0xFF byte), a tag below 31 in one byte (§8.1.2.2) and an INTEGER as a
    // primitive; what BER adds is choice in lengths — the long form where the short would do, leading zero
    // length bytes, the indefinite form with its end-of-contents — and every such choice adds bytes. So an
    // input a decoder reads as BER and that is as long as its DER re-encoding is that re-encoding. Same length
    // and other bytes takes a decoder that reads what is not BER at all, e.g. an integer missing the 0x00 its
    // top bit needs (one byte short) read as positive beside a padded one (one byte long); OpenSSL 3's
    // `d2i_ECDSA_SIG` refuses both, and the byte comparison would refuse them whatever the decoder did.

    /// (curve, a valid signature's DER, a BER spelling of the same r and s).
    static let berSpellings: [(EllipticCurve, String, String)] = [
        (.p256, "3006 020101 020101", "3081 06 020101 020101"),  // SEQUENCE length in long form
        (.p256, "3006 020101 020101", "3082 0006 020101 020101"),  // … in two length bytes
        (.p256, "3006 020101 020101", "3007 028101 01 020101"),  // r's length in long form
        (.p256, "3006 020101 020101", "3007 020101 028101 01"),  // s's length in long form
        (.p256, "3006 020101 020101", "3009 02820001 01 02810101"),  // both, the SEQUENCE grown with them
        (.p256, "3006 020101 020101", "3080 020101 020101 0000"),  // indefinite length, end-of-contents
        (.p256, "3006 020101 020101", "3007 02020001 020101"),  // r padded with a needless 0x00
        (.p256, "3006 020101 020101", "3006 020101 020101 00"),  // a trailing byte
        // DER's own long form (136 > 127) accepted, the same length in more bytes refused.
        (.p521, p521Signature(sequenceLength: "81 88"), p521Signature(sequenceLength: "82 0088")),
    ]

    @Test(
        "BER spellings of a valid signature are refused and its DER spelling accepted (X.690 §10.1)",
        arguments: berSpellings)
    func berSpelling(curve: EllipticCurve, der: String, ber: String) {
        #expect(Self.isStrict(der, curve: curve))
        #expect(!Self.isStrict(ber, curve: curve))
    }

    @Test("r without its sign byte beside an s with a needless 0x00: as long as a DER spelling, and refused")
    func sameLengthRespelling() {
        // Read as unsigned, `85` is 133 and its DER is `02 02 00 85`; `00 07` is 7 and its DER is `02 01 07`: the
        // DER spelling of those values is as long as this input, with other bytes.
        #expect(!Self.isStrict("3007 020185 02020007"))
        #expect(!Self.isStrict("3007 02020007 020185"))
        #expect(Self.isStrict("3007 02020085 020107"))
    }
}
