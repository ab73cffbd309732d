import Crypto
import TestSupport
import Testing

@Suite("DERNode")
struct DERNodeTests {
    /// SEQUENCE { OID 1.2.840.113635.100.8.2, BOOLEAN TRUE, INTEGER 256, OCTET STRING 0102,
    ///            [1] { UTF8String "hi" }, BIT STRING 00 ff, INTEGER -1 }
    static let sample = Hex.decode(
        "3023" + "06092a864886f763640802" + "0101ff" + "02020100" + "04020102" + "a1040c026869" + "030200ff" + "0201ff")

    @Test("a SEQUENCE parses into typed children")
    func parseSample() throws {
        let root = try DERNode.parse(Self.sample)
        #expect(root.hasTag(.universal, DERNode.UniversalTag.sequence) && root.isConstructed)
        #expect(root.encoded == Self.sample)
        let children = try root.children()
        #expect(children.count == 7)
        #expect(try children[0].objectIdentifier() == "1.2.840.113635.100.8.2")
        #expect(try children[1].boolean())
        #expect(try children[2].integerValue() == 256)
        #expect(try children[2].integerBytes() == [0x01, 0x00])
        #expect(try children[3].octetString() == [0x01, 0x02])
        #expect(children[4].tagClass == .contextSpecific && children[4].tagNumber == 1)
        #expect(try children[4].children().first?.string() == "hi")
        #expect(try children[5].bitStringBytes() == [0xFF])
        #expect(try children[6].integerValue() == -1)
    }

    @Test("trailing bytes after the element are refused with .invalidDER")
    func trailing() {
        #expect(throws: CryptoError(.invalidDER, "")) { try DERNode.parse(Self.sample + [0x00]) }
    }

    @Test("empty input is refused with .invalidDER")
    func empty() {
        #expect(throws: CryptoError(.invalidDER, "")) { try DERNode.parse([]) }
    }

    @Test("a length running past the input is refused with .invalidDER")
    func truncated() {
        #expect(throws: CryptoError(.invalidDER, "")) { try DERNode.parse([0x04, 0x05, 0x01]) }
    }

    @Test("the indefinite length form (BER) is refused with .invalidDER")
    func indefinite() {
        #expect(throws: CryptoError(.invalidDER, "")) { try DERNode.parse([0x30, 0x80, 0x05, 0x00, 0x00, 0x00]) }
    }

    @Test("a non-minimal long-form length is refused with .invalidDER")
    func nonMinimalLength() {
        #expect(throws: CryptoError(.invalidDER, "")) { try DERNode.parse([0x04, 0x81, 0x01, 0xAA]) }
        #expect(throws: CryptoError(.invalidDER, "")) { try DERNode.parse([0x04, 0x82, 0x00, 0x01, 0xAA]) }
    }

    @Test("a high-tag-number form for a low tag is refused with .invalidDER")
    func nonMinimalTag() {
        #expect(throws: CryptoError(.invalidDER, "")) { try DERNode.parse([0x1F, 0x04, 0x01, 0xAA]) }
    }

    @Test("a high tag number (≥ 31) is read")
    func highTag() throws {
        let node = try DERNode.parse([0x9F, 0x8A, 0x2C, 0x01, 0x05])  // [1324] as in Android KeyDescription
        #expect(node.tagClass == .contextSpecific && node.tagNumber == 1324 && node.contents == [0x05])
    }

    @Test("children() of a primitive element is refused with .invalidDER")
    func primitiveChildren() throws {
        #expect(throws: CryptoError(.invalidDER, "")) { try DERNode.parse([0x04, 0x00]).children() }
    }

    @Test("a malformed child is refused with .invalidDER")
    func malformedChild() throws {
        let node = try DERNode.parse([0x30, 0x02, 0x04, 0x05])
        #expect(throws: CryptoError(.invalidDER, "")) { try node.children() }
    }

    @Test("accessors refuse the wrong tag with .invalidDER")
    func wrongTags() throws {
        let octets = try DERNode.parse([0x04, 0x01, 0x01])
        #expect(throws: CryptoError(.invalidDER, "")) { try octets.objectIdentifier() }
        #expect(throws: CryptoError(.invalidDER, "")) { try octets.boolean() }
        #expect(throws: CryptoError(.invalidDER, "")) { try octets.integerBytes() }
        #expect(throws: CryptoError(.invalidDER, "")) { try octets.string() }
        #expect(throws: CryptoError(.invalidDER, "")) { try octets.bitStringBytes() }
        #expect(throws: CryptoError(.invalidDER, "")) { try DERNode.parse([0x02, 0x01, 0x01]).octetString() }
    }

    @Test("an empty or non-minimal OID is refused with .invalidDER")
    func badOID() {
        #expect(throws: CryptoError(.invalidDER, "")) { try DERNode.parse([0x06, 0x00]).objectIdentifier() }
        #expect(throws: CryptoError(.invalidDER, "")) {
            try DERNode.parse([0x06, 0x02, 0x80, 0x01]).objectIdentifier()
        }
    }

    @Test("an empty or non-minimal INTEGER is refused with .invalidDER")
    func badInteger() {
        #expect(throws: CryptoError(.invalidDER, "")) { try DERNode.parse([0x02, 0x00]).integerBytes() }
        #expect(throws: CryptoError(.invalidDER, "")) { try DERNode.parse([0x02, 0x02, 0x00, 0x05]).integerBytes() }
        #expect(throws: CryptoError(.invalidDER, "")) { try DERNode.parse([0x02, 0x02, 0xFF, 0x85]).integerBytes() }
    }

    @Test("an INTEGER beyond 64 bits has bytes but no Int value")
    func hugeInteger() throws {
        let node = try DERNode.parse([0x02, 0x09, 0x01] + [UInt8](repeating: 0, count: 8))
        #expect(try node.integerBytes().count == 9)
        #expect(throws: CryptoError(.invalidDER, "")) { try node.integerValue() }
    }

    @Test("a BOOLEAN other than 0x00/0xFF, or longer than one byte, is refused with .invalidDER")
    func badBoolean() throws {
        #expect(try !DERNode.parse([0x01, 0x01, 0x00]).boolean())
        #expect(throws: CryptoError(.invalidDER, "")) { try DERNode.parse([0x01, 0x01, 0x01]).boolean() }
        #expect(throws: CryptoError(.invalidDER, "")) { try DERNode.parse([0x01, 0x02, 0xFF, 0xFF]).boolean() }
    }

    @Test("a BIT STRING with unused bits is refused with .invalidDER")
    func bitStringUnusedBits() {
        #expect(throws: CryptoError(.invalidDER, "")) { try DERNode.parse([0x03, 0x02, 0x01, 0xFE]).bitStringBytes() }
    }

    @Test("a string that is not UTF-8 is refused with .invalidDER")
    func badString() {
        #expect(throws: CryptoError(.invalidDER, "")) { try DERNode.parse([0x0C, 0x01, 0xFF]).string() }
    }

    @Test("robustness: every prefix and every single-byte flip of a certificate gives a value or a typed error")
    func robustness() throws {
        let der = try Certificate.certificates(fromPEM: TestFixtures.text("trust/apple_webauthn_root_ca.pem"))[0]
            .derEncoded
        _ = try Self.walk(DERNode.parse(der))
        for length in 0..<der.count {
            #expect(throws: CryptoError.self) { try Self.walk(DERNode.parse(Array(der.prefix(length)))) }
        }
        for offset in 0..<der.count {
            var flipped = der
            flipped[offset] ^= 0xFF
            do { _ = try Self.walk(DERNode.parse(flipped)) } catch {}  // typed: any throw is a CryptoError
        }
    }

    /// Visits every node, descending into constructed ones; returns the node count.
    static func walk(_ node: DERNode) throws(CryptoError) -> Int {
        guard node.isConstructed else { return 1 }
        var count = 1
        for child in try node.children() { count += try walk(child) }
        return count
    }
}
