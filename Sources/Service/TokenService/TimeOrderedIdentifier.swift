import Crypto
import Foundation

/// A UUID version 7 (RFC 9562 §5.7): 48 bits of Unix time in milliseconds, then 74 random bits, in the canonical
/// lowercase 8-4-4-4-12 text form.
///
/// Why, for refresh-token family ids: they are indexed (`refresh_tokens_family`), and a random id lands each new
/// family on a random leaf of that index, so every login dirtied one more page for the WAL and the checkpoint
/// to write. Ids that grow with time append at the index's right edge, where a batch of logins shares a page —
/// measured on `make bench`'s login run: about a fifth fewer WAL frames, and shorter checkpoints. The time
/// prefix is not secret (the family's `created_at` is stored beside it); the random part keeps ids unguessable
/// and unique within a millisecond.
package enum TimeOrderedIdentifier {
    /// RFC 9562 §5.7 field sizes.
    package static let timestampByteCount = 6
    package static let randomByteCount = 10

    /// A new identifier for `now` from OpenSSL's CSPRNG.
    package static func make(now: Date) throws -> String {
        try make(now: now, random: SecureRandom.bytes(count: randomByteCount))
    }

    /// The identifier for `now` with the first 10 of `random` as its random part (74 bits of them are used;
    /// missing bytes read as zero).
    package static func make(now: Date, random: [UInt8]) -> String {
        // Before 1970 or past the 48-bit range (year 10889) cannot come from a sane clock: clamp rather than trap.
        let milliseconds = (now.timeIntervalSince1970 * 1000).rounded(.down)
        let timestamp: UInt64 = milliseconds > 0 ? UInt64(min(milliseconds, Double(0xFFFF_FFFF_FFFF))) : 0
        var bytes = [UInt8](repeating: 0, count: timestampByteCount + randomByteCount)
        for index in 0..<timestampByteCount {
            bytes[index] = UInt8(truncatingIfNeeded: timestamp >> (8 * UInt64(timestampByteCount - 1 - index)))
        }
        for (offset, byte) in random.prefix(randomByteCount).enumerated() { bytes[timestampByteCount + offset] = byte }
        bytes[6] = 0x70 | (bytes[6] & 0x0F)  // version 7 (RFC 9562 §4.2)
        bytes[8] = 0x80 | (bytes[8] & 0x3F)  // variant 10 (RFC 9562 §4.1)
        // Text order is byte order (UUIDText), so these ids sort by time as text too.
        return UUIDText.format(bytes)
    }
}
