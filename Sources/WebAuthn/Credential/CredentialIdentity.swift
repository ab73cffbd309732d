import Crypto

/// The identity members every PublicKeyCredential carries, checked the same way in both ceremonies.
enum CredentialIdentity {
    /// WebAuthn L3 §5.1: a PublicKeyCredential's `type` is "public-key" and its `id` is base64url(`rawId`).
    static func verify(type: String, id: String, rawID: [UInt8]) throws(WebAuthnError) {
        guard type == "public-key" else {
            throw WebAuthnError(.credentialTypeMismatch, "type is \"\(type)\"")
        }
        // Compared as the bytes `id` decodes to: an `id` written with non-zero pad bits (RFC 4648 §3.5 lets a
        // decoder accept them, and ours does, as it does in `rawId`) names the same credential as the
        // canonical text; an `id` that is not base64url names none.
        guard Base64URL.decodes(id, to: rawID) else {
            throw WebAuthnError(.credentialIDMismatch, "id is not base64url(rawId)")
        }
    }
}
