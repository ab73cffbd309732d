/// A registration PublicKeyCredential as the client sent it (WebAuthn L3 §5.1, §5.2.1), bytes decoded
/// from the JSON form by the caller.
public struct RegistrationResponse: Sendable {
    /// `id`: base64url of `rawId`.
    public let id: String
    /// `rawId`: the credential ID.
    public let rawID: [UInt8]
    /// `type`: must be "public-key".
    public let type: String
    /// `response.clientDataJSON`.
    public let clientDataJSON: [UInt8]
    /// `response.attestationObject`.
    public let attestationObject: [UInt8]
    /// `response.transports` (getTransports()), when sent.
    public let transports: [String]

    /// Creates a response.
    public init(
        id: String,
        rawID: [UInt8],
        type: String,
        clientDataJSON: [UInt8],
        attestationObject: [UInt8],
        transports: [String] = []
    ) {
        self.id = id
        self.rawID = rawID
        self.type = type
        self.clientDataJSON = clientDataJSON
        self.attestationObject = attestationObject
        self.transports = transports
    }
}
