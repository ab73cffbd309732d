import Foundation

/// One unused recovery code of a user, stored only as a slow hash (PBKDF2-HMAC-SHA-256 under the set's salt):
/// a database read yields no usable code. A user's codes form one set, replaced as a whole.
public struct RecoveryCode: Sendable, Hashable {
    /// The owning user's id.
    public var userID: String
    /// The code's slow hash.
    public var codeHash: [UInt8]
    /// The salt of the set (the same for every code of one generation).
    public var salt: [UInt8]
    /// When the set was generated.
    public var createdAt: Date

    /// Creates a recovery-code record.
    public init(userID: String, codeHash: [UInt8], salt: [UInt8], createdAt: Date) {
        self.userID = userID
        self.codeHash = codeHash
        self.salt = salt
        self.createdAt = createdAt
    }
}
