import Crypto

/// Auth0's shapes of an organization's id and name.
package enum OrganizationNaming {
    /// What every organization id starts with.
    package static let idPrefix = "org_"
    /// The random characters after the prefix.
    package static let idRandomLength = 16
    /// The longest name (Auth0: "Must be between 1 and 50 characters").
    package static let maximumNameLength = 50
    /// The longest display name (Auth0's Management API: 255).
    package static let maximumDisplayNameLength = 255

    /// A new id: `org_` and 16 random letters and digits (about 95 bits), as Auth0's `org_aaAA1aa11aAAAA1a`.
    package static func newID() throws -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var characters: [Character] = []
        while characters.count < idRandomLength {
            // Rejection sampling: bytes past the largest multiple of 62 are dropped, so every letter is as likely.
            for byte in try SecureRandom.bytes(count: idRandomLength)
            where Int(byte) < 256 - 256 % alphabet.count && characters.count < idRandomLength {
                characters.append(alphabet[Int(byte) % alphabet.count])
            }
        }
        return idPrefix + String(characters)
    }

    /// Whether `text` has the shape of an id (`org_` and 1–46 ASCII letters and digits: Auth0's ids are at most 50
    /// characters); whether one exists is the store's answer.
    package static func isID(_ text: String) -> Bool {
        guard text.hasPrefix(idPrefix), text.utf8.count <= maximumNameLength else { return false }
        let rest = text.utf8.dropFirst(idPrefix.utf8.count)
        return !rest.isEmpty && rest.allSatisfy { isASCIILetter($0) || isDigit($0) }
    }

    /// Auth0's rule for a name: 1–50 characters, lower-case ASCII letters, digits, `_` and `-` (it may start with a
    /// digit).
    package static func isValidName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= maximumNameLength
            && text.utf8.allSatisfy { (0x61...0x7A).contains($0) || isDigit($0) || $0 == 0x5F || $0 == 0x2D }
    }

    /// Whether a display name is acceptable: 1–255 characters, no control character.
    package static func isValidDisplayName(_ text: String) -> Bool {
        !text.isEmpty && text.count <= maximumDisplayNameLength
            && !text.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
}
