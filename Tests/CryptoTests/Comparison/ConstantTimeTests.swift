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

    @Test("slices and borrowed buffers compare by the same rules as arrays")
    func slicesAndBuffers() {
        let wide: [UInt8] = [9, 1, 2, 3, 4, 9]
        #expect(ConstantTime.equals(wide[1..<5], [1, 2, 3, 4]))
        #expect(!ConstantTime.equals(wide[1..<5], [1, 2, 3, 5]))
        #expect(!ConstantTime.equals(wide[1..<4], [1, 2, 3, 4]))
        #expect(ConstantTime.equals(wide[1..<1], []))
        wide.withUnsafeBufferPointer { buffer in
            #expect(ConstantTime.equals(UnsafeBufferPointer(rebasing: buffer[1..<5]), [1, 2, 3, 4]))
            #expect(!ConstantTime.equals(UnsafeBufferPointer(rebasing: buffer[1..<5]), [1, 2, 3, 5]))
            #expect(!ConstantTime.equals(UnsafeBufferPointer(rebasing: buffer[1..<5]), [1, 2, 3]))
            #expect(ConstantTime.equals(UnsafeBufferPointer(rebasing: buffer[0..<0]), []))
        }
        // A collection with no contiguous storage is compared as a copy.
        #expect(ConstantTime.equals(repeatElement(UInt8(7), count: 3), [7, 7, 7]))
        #expect(!ConstantTime.equals(repeatElement(UInt8(7), count: 3), [7, 7, 8]))
    }
}
