import Crypto

/// The identity members every PublicKeyCredential carries, checked the same way in both ceremonies.
enum CredentialIdentity {
    /// WebAuthn L3 §5.1: a PublicKeyCredential's `type` is "public-key" and its `id` is base64url(`rawId`).
    static func verify(type: String, id: String, rawID: [UInt8]) throws(WebAuthnError) {
        guard type == "public-key" else {
            throw WebAuthnError(.credentialTypeMismatch, "type is \"\(type)\"")
        }
        // Compared as the bytes `id` decodes to, through the one base64url rule as `rawId` is read
        // (`PublicKeyCredentialJSON`): an `id` padded, in the standard alphabet or with whitespace names no credential.
        guard Base64URL.decodes(id, to: rawID, unusedBits: .ignored) else {
            throw WebAuthnError(.credentialIDMismatch, "id is not base64url(rawId)")
        }
    }
}
