import Crypto
import Testing

@Suite("ConstantTime")
struct ConstantTimeTests {
    @Test("equal bytes compare equal; one flipped bit or a length change does not")
    func equality() {
        let bytes: [UInt8] = [1, 2, 3, 4]
        #expect(ConstantTime.equals(bytes, [1, 2, 3, 4]))
        #expect(ConstantTime.equals([], []))
        #expect(!ConstantTime.equals(bytes, [1, 2, 3, 5]))
        #expect(!ConstantTime.equals(bytes, [1, 2, 3]))
        #expect(!ConstantTime.equals(bytes, []))
    }
}
