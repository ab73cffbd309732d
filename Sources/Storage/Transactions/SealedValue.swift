/// Bytes stored sealed under the key-encryption key, which `StoreWriter.replace(_:expected:replacement:)` re-seals
/// by compare-and-set: of nodes sealing the same value at once one replaces it, and a value changed meanwhile stays.
public enum SealedValue: Sendable, Hashable {
    /// The private key of the signing key `kid`.
    case signingKeyPrivateKey(kid: String)
    /// The verifier bytes of `userID`'s password verifier.
    case passwordVerifier(userID: String)
    /// The server secret `name`.
    case serverSecret(name: String)
}
