import Crypto
import Testing

@Suite("UUID text form (RFC 9562 §4)")
struct UUIDTextTests {
    @Test("16 bytes are 8-4-4-4-12 lower-case hex; other lengths are plain hex")
    func format() {
        #expect(UUIDText.format(Array(0..<16)) == "00010203-0405-0607-0809-0a0b0c0d0e0f")
        #expect(UUIDText.format([UInt8](repeating: 0xAB, count: 16)) == "abababab-abab-abab-abab-abababababab")
        #expect(UUIDText.format([0x0F, 0xF0, 0x00]) == "0ff000")
        #expect(UUIDText.format([]) == "")
    }
}
