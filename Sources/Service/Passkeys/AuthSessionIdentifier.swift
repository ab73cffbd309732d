import Crypto
import Foundation

/// The id of a sealed auth session (`AuthSessionSealer.newSessionID(now:)`): 16 bytes in base64url, as
/// `AuthSessionCoding` carries it, whose first 8 characters spell the Unix time in milliseconds so that ids sort
/// by creation time as text.
///
/// Why: the token grant records the id as spent (`spent_auth_sessions`, keyed by it), and a random id put every
/// login's insert on a random leaf of that key's b-tree: one more 4 KiB page per login for the WAL and for the next
/// checkpoint to write. Ids that grow with time append at the b-tree's right edge, where a batch of logins shares
/// a page (docs/design-notes.md, "The SQLite login write's pages").
///
/// The time goes into the first 6 bytes as 8 base-64 digits whose characters are the base64url alphabet in ASCII
/// order (`-0…9A…Z_a…z`), not in its value order (`A…Za…z0…9-_`), so that the text, which SQLite compares
/// byte by byte, sorts as the time does; the id still decodes as 16 bytes. The other 10 bytes are random. Nothing
/// here needs to be unguessable: the id travels only inside the sealed, encrypted session (the client sees
/// neither it nor its time), and what a presentation spends is the session that opened; the 80 random bits keep
/// ids unique among sessions made in the same millisecond.
package enum AuthSessionIdentifier {
    /// The bytes of the time prefix (48 bits of milliseconds, 8 characters) and of the random part.
    package static let timestampByteCount = 6
    package static let randomByteCount = 10

    /// The base64url alphabet (RFC 4648 §5 Table 2) in the ASCII order of its characters: digit `d` of the time is
    /// written as `textOrderedDigits[d]`.
    private static let textOrderedDigits: [UInt8] = Array(
        "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz".utf8)

    /// A new id for `now`, its random part from OpenSSL's CSPRNG.
    package static func make(now: Date) throws -> String {
        make(now: now, random: try SecureRandom.bytes(count: randomByteCount))
    }

    /// The id for `now` with `random` (exactly `randomByteCount` bytes: a shorter array is padded with zeros, a
    /// longer one cut) as its last 10 bytes.
    package static func make(now: Date, random: [UInt8]) -> String {
        // Before 1970 or past 48 bits (year 10889) cannot come from a sane clock: clamp rather than trap.
        let milliseconds = (now.timeIntervalSince1970 * 1000).rounded(.down)
        let timestamp: UInt64 = milliseconds > 0 ? UInt64(min(milliseconds, Double(0xFFFF_FFFF_FFFF))) : 0
        var text = [UInt8]()
        text.reserveCapacity(22)
        for shift in stride(from: 42, through: 0, by: -6) {
            text.append(textOrderedDigits[Int((timestamp >> UInt64(shift)) & 0x3F)])
        }
        var tail = Array(random.prefix(randomByteCount))
        tail.append(contentsOf: repeatElement(0, count: randomByteCount - tail.count))
        // 8 characters are 6 whole bytes, so the random part's own encoding follows them unchanged.
        text.append(contentsOf: Base64URL.encode(tail).utf8)
        return String(decoding: text, as: UTF8.self)
    }
}
