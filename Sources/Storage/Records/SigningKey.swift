import Foundation

/// A server key that signs tokens (and audit entries).
public struct SigningKey: Sendable, Hashable {
    /// The JWK key id.
    public var kid: String
    /// The JOSE algorithm (e.g. `ES256`).
    public var algorithm: String
    /// The private key as PKCS#8 DER.
    public var privateKey: [UInt8]
    /// The public key as SubjectPublicKeyInfo DER.
    public var publicKey: [UInt8]
    /// When the key was created.
    public var createdAt: Date
    /// When the key stopped signing; a retired key stays published for verification for a while.
    public var retiredAt: Date?

    /// Creates a signing-key record.
    public init(
        kid: String, algorithm: String, privateKey: [UInt8], publicKey: [UInt8], createdAt: Date,
        retiredAt: Date? = nil
    ) {
        self.kid = kid
        self.algorithm = algorithm
        self.privateKey = privateKey
        self.publicKey = publicKey
        self.createdAt = createdAt
        self.retiredAt = retiredAt
    }
}
