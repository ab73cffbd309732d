import Crypto

/// The one AEAD envelope of the values the server hands out sealed and opens again later, on any node: a sealed
/// `auth_session` (`AuthSessionSealer`) and the hosted page's transaction (`HostedTransactionSealer`). AES-256-GCM
/// under a key derived (HKDF-SHA-256) from a server secret every node of one database shares, with an `info` per
/// purpose, so that one purpose's key never opens another's values.
///
/// The value is base64url of version (1 byte) ‖ nonce (12) ‖ ciphertext ‖ tag (16); the associated data is the
/// purpose's label, a NUL and the version, so neither another purpose's envelope nor another version opens.
package struct SealedEnvelope: Sendable {
    /// The format written, and the only one opened.
    package let version: UInt8
    /// The longest value opened, in characters: anything longer is refused unread.
    package let maximumValueLength: Int

    private let associatedData: [UInt8]
    private let cipher: AES256GCM

    /// An envelope under the key derived from `secret` for `keyPurpose` (HKDF `info`), its values labelled `label`.
    package init(secret: [UInt8], keyPurpose: [UInt8], label: String, version: UInt8, maximumValueLength: Int) throws {
        self.version = version
        self.maximumValueLength = maximumValueLength
        associatedData = Array(label.utf8) + [0, version]
        cipher = try AES256GCM(
            key: try HKDF.sha256(secret: secret, info: keyPurpose, length: AES256GCM.keyByteCount))
    }

    /// The sealed value of `plaintext` (a fresh random nonce each time). The caller bounds its length.
    package func seal(_ plaintext: [UInt8]) throws -> String {
        Base64URL.encode([version] + (try cipher.seal(plaintext, associatedData: associatedData)))
    }

    /// The plaintext `value` seals, or `nil` when it does not open: not canonical base64url, too long, another
    /// version, truncated, altered, or sealed under another key or for another purpose.
    package func open(_ value: String) -> [UInt8]? {
        guard value.utf8.count <= maximumValueLength, let bytes = Base64URL.decode(value), bytes.first == version
        else { return nil }
        return try? cipher.open(Array(bytes.dropFirst()), associatedData: associatedData)
    }
}
