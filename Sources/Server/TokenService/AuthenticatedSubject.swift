import Foundation

/// Who a valid Bearer access token speaks for (RFC 9068 §2.2 claims), as `TokenService.authenticate` returns it.
public struct AuthenticatedSubject: Sendable, Equatable {
    /// `sub`: the user id.
    public let sub: String
    /// `client_id`: the app the token was issued to.
    public let clientID: String
    /// `scope`, split on spaces.
    public let scope: [String]
    /// `auth_time`: when the user last authenticated with a passkey, if the token says.
    public let authTime: Date?
    /// `jti` of the token.
    public let tokenID: String

    /// Creates a subject.
    public init(sub: String, clientID: String, scope: [String], authTime: Date?, tokenID: String) {
        self.sub = sub
        self.clientID = clientID
        self.scope = scope
        self.authTime = authTime
        self.tokenID = tokenID
    }
}
