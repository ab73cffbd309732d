/// A credential held by the software authenticator: what a real authenticator keeps in its secure storage.
public struct VirtualCredential: Sendable {
    /// The credential ID (`rawId`).
    public let id: [UInt8]
    /// The private key.
    public let key: CredentialSigningKey
    /// The RP ID the credential is scoped to.
    public let rpID: String
    /// The user handle (`user.id` of the creation options), returned in assertions as `userHandle`.
    public let userHandle: [UInt8]
    /// The signature counter as last reported.
    public var signCount: UInt32
    /// How much the counter grows per assertion; 0 for authenticators that never count (synced passkeys).
    public var counterStep: UInt32

    /// Creates a credential record.
    public init(
        id: [UInt8], key: CredentialSigningKey, rpID: String, userHandle: [UInt8], signCount: UInt32 = 0,
        counterStep: UInt32 = 1
    ) {
        self.id = id
        self.key = key
        self.rpID = rpID
        self.userHandle = userHandle
        self.signCount = signCount
        self.counterStep = counterStep
    }
}
