/// Request ids: taken from the client's `X-Request-Id` when it is a sane token, otherwise generated.
public enum RequestID {
    /// The header that carries the id, in requests and responses.
    public static let headerName = "X-Request-Id"
    /// The longest client-supplied id accepted.
    public static let maximumLength = 128

    /// Whether `candidate` is acceptable as a request id: 1…128 characters of `[A-Za-z0-9._-]`.
    /// Anything else could smuggle separators or control characters into logs.
    public static func isAcceptable(_ candidate: String) -> Bool {
        let utf8 = candidate.utf8
        guard !utf8.isEmpty, utf8.count <= maximumLength else { return false }
        return utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                return true
            default:
                return false
            }
        }
    }

    /// `candidate` when acceptable, otherwise a freshly generated id.
    public static func accepting(_ candidate: String?) -> String {
        if let candidate, isAcceptable(candidate) {
            return candidate
        }
        return generate()
    }

    /// A new id: 16 random bytes as 32 lower-case hex digits, from `SystemRandomNumberGenerator`
    /// (getrandom(2) on Linux: no file descriptor, no Foundation).
    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        return String(unsafeUninitializedCapacity: 32) { buffer in
            for index in 0..<16 {
                let word = index < 8 ? high : low
                let shift = UInt64((7 - index % 8) * 8)
                let byte = Int((word >> shift) & 0xFF)
                buffer[index * 2] = ASCII.hexDigits[byte >> 4]
                buffer[index * 2 + 1] = ASCII.hexDigits[byte & 0x0F]
            }
            return 32
        }
    }
}
