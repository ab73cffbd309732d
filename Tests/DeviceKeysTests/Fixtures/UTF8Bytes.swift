/// Test-only: bytes from a hex literal (fixed vectors only; traps on bad input, which is a test bug).
func hex(_ text: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = text.startIndex
    while index < text.endIndex {
        let next = text.index(index, offsetBy: 2)
        bytes.append(UInt8(text[index..<next], radix: 16)!)
        index = next
    }
    return bytes
}

/// Test-only: the UTF-8 bytes of a string.
func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }
