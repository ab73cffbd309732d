/// An authentication PublicKeyCredential as the client sent it (WebAuthn L3 §5.1, §5.2.2), bytes decoded
/// from the JSON form by the caller.
public struct AuthenticationResponse: Sendable {
    /// `id`: base64url of `rawId`.
    public let id: String
    /// `rawId`: the credential ID.
    public let rawID: [UInt8]
    /// `type`: must be "public-key".
    public let type: String
    /// `response.clientDataJSON`.
    public let clientDataJSON: [UInt8]
    /// `response.authenticatorData`.
    public let authenticatorData: [UInt8]
    /// `response.signature`.
    public let signature: [UInt8]
    /// `response.userHandle`, when the authenticator returned one.
    public let userHandle: [UInt8]?

    /// Creates a response.
    public init(
        id: String,
        rawID: [UInt8],
        type: String,
        clientDataJSON: [UInt8],
        authenticatorData: [UInt8],
        signature: [UInt8],
        userHandle: [UInt8]?
    ) {
        self.id = id
        self.rawID = rawID
        self.type = type
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
    }
}
