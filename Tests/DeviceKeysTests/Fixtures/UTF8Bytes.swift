/// Test-only: the UTF-8 bytes of a string.
func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }
