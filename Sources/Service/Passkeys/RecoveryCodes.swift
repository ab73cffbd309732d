import Crypto
import Foundation
import Storage

/// Recovery codes: `count` single-use codes of 12 Crockford base32 characters (60 random bits each), shown once
/// as `XXXX-XXXX-XXXX` and stored only as PBKDF2-HMAC-SHA-256 (RFC 8018 §5.2) hashes: `iterations` rounds, a
/// 16-byte random salt per set, 32-byte output. One PBKDF2 per attempt: the salt is the set's, so a presented
/// code is hashed once and looked up among the set's hashes.
package enum RecoveryCodes {
    /// Codes per set.
    package static let count = 10
    /// PBKDF2 rounds. Each code carries 60 random bits, so the slow hash guards a stolen table rather than weak
    /// secrets; 100,000 rounds cost about 50 ms per attempt on one core.
    package static let iterations = 100_000
    /// Salt length in bytes.
    package static let saltLength = 16
    /// Characters per code (without separators).
    package static let length = 12
    /// Crockford's base32 alphabet: no I, L, O, U.
    package static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")

    /// A new set for `userID` at `now`: the codes to show once, and the records to store.
    package static func generate(userID: String, now: Date) throws -> (codes: [String], records: [RecoveryCode]) {
        let salt = try SecureRandom.bytes(count: saltLength)
        var codes: [String] = []
        var records: [RecoveryCode] = []
        for _ in 0..<count {
            // 256 is a multiple of 32: the low five bits of a uniform byte are uniform.
            let code = String(try SecureRandom.bytes(count: length).map { alphabet[Int($0 & 0x1F)] })
            codes.append(display(code))
            records.append(
                RecoveryCode(userID: userID, codeHash: try hash(code, salt: salt), salt: salt, createdAt: now))
        }
        return (codes, records)
    }

    /// `XXXX-XXXX-XXXX`.
    package static func display(_ code: String) -> String {
        let characters = Array(code)
        return stride(from: 0, to: characters.count, by: 4).map {
            String(characters[$0..<min($0 + 4, characters.count)])
        }
        .joined(separator: "-")
    }

    /// The canonical code of what a person typed: separators and spaces dropped, upper-cased, Crockford's
    /// look-alikes mapped (O→0, I and L→1); `nil` unless 12 characters of the alphabet remain.
    package static func normalized(_ text: String) -> String? {
        guard text.utf8.count <= 64 else { return nil }
        var result: [Character] = []
        for character in text.uppercased() where character != "-" && character != " " {
            let mapped: Character =
                switch character {
                case "O": "0"
                case "I", "L": "1"
                default: character
                }
            guard alphabet.contains(mapped) else { return nil }
            result.append(mapped)
        }
        return result.count == length ? String(result) : nil
    }

    /// The stored hash of the canonical `code` under `salt`.
    package static func hash(_ code: String, salt: [UInt8]) throws -> [UInt8] {
        try PBKDF2.sha256(password: Array(code.utf8), salt: salt, iterations: iterations)
    }
}
