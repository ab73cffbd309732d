import Foundation

/// The server's half of a pending SRP-6a login, created by `/srp/challenge` and consumed once by `/oauth/token`.
/// Stored (not kept in one node's memory) so that any node can finish the login: b is needed to compute S.
public struct SRPSession: Sendable, Hashable {
    /// The lookup key (a digest of the `auth_session` value handed to the client).
    public var id: String
    /// The client the login was started for.
    public var clientID: String
    /// The realm of the login.
    public var realm: String
    /// I as the client sent it.
    public var identity: String
    /// The user, nil when no verifier has that identity (the login is then bound to fail).
    public var userID: String?
    /// s as sent (the user's salt, or the deterministic stand-in for an unknown identity).
    public var salt: [UInt8]
    /// v the challenge was computed with (a random stand-in for an unknown identity).
    public var verifier: [UInt8]
    /// A, the client's public value.
    public var clientPublic: [UInt8]
    /// b, the server's secret exponent (single use, deleted on consumption), as stored: sealed under the
    /// key-encryption key when the server has one (`encryption_at_rest`).
    public var serverSecret: [UInt8]
    /// B = k·v + g^b, as sent.
    public var serverPublic: [UInt8]
    /// The client's address, for the per-address failure count.
    public var address: String
    /// When the challenge was issued.
    public var createdAt: Date
    /// When the session stops being usable.
    public var expiresAt: Date

    /// Creates an SRP session record.
    public init(
        id: String, clientID: String, realm: String, identity: String, userID: String?, salt: [UInt8],
        verifier: [UInt8], clientPublic: [UInt8], serverSecret: [UInt8], serverPublic: [UInt8], address: String,
        createdAt: Date, expiresAt: Date
    ) {
        self.id = id
        self.clientID = clientID
        self.realm = realm
        self.identity = identity
        self.userID = userID
        self.salt = salt
        self.verifier = verifier
        self.clientPublic = clientPublic
        self.serverSecret = serverSecret
        self.serverPublic = serverPublic
        self.address = address
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}
