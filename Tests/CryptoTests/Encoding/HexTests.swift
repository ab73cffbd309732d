import Crypto
import Testing

@Suite("Hex: lower-case base16")
struct HexTests {
    @Test("two lower-case digits per byte, leading zeros kept (RFC 4648 §10's base16 vector, in lower case)")
    func encode() {
        #expect(Hex.encode([]) == "")
        #expect(Hex.encode([0x00, 0x0f, 0xa0, 0xff]) == "000fa0ff")
        #expect(Hex.encode(Array("foobar".utf8)) == "666f6f626172")
    }
}
