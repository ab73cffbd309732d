import Synchronization

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

    /// A new id: 128 bits as 32 lower-case hex digits, drawn without a system call.
    ///
    /// Request ids only correlate log lines; they protect nothing. Two `getrandom(2)` calls per request (the
    /// previous source) were a measurable share of a login's CPU, so the bits now come from SipHash (`Hasher`,
    /// randomly seeded per process) over a process-wide counter and a key drawn once from
    /// `SystemRandomNumberGenerator`: a 128-bit keyed hash of a counter that never repeats, so ids do not collide in
    /// practice, differ across restarts (even with deterministic hashing) and cannot be guessed without the key.
    public static func generate() -> String {
        let sequence = counter.add(1, ordering: .relaxed).newValue
        let high = keyedHash(sequence, lane: 0)
        let low = keyedHash(sequence, lane: 1)
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

    /// Requests numbered so far in this process.
    private static let counter = Atomic<UInt64>(0)
    /// The process's id key: 128 bits from the system's CSPRNG, drawn on first use.
    private static let processKey: (UInt64, UInt64) = {
        var generator = SystemRandomNumberGenerator()
        return (generator.next(), generator.next())
    }()

    /// 64 bits of SipHash over the process key, a lane number and the request's sequence number.
    private static func keyedHash(_ sequence: UInt64, lane: UInt8) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(processKey.0)
        hasher.combine(processKey.1)
        hasher.combine(lane)
        hasher.combine(sequence)
        return UInt64(UInt(bitPattern: hasher.finalize()))
    }
}
