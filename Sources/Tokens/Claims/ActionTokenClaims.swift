import Foundation
import JSON

/// The claims of an action token: a short-lived JWT that authorises exactly one action a user approved
/// with a device key. Signed with `typ` "action+jwt" so it can never pass as an access token (RFC 8725 §3.11).
///
/// - `authorization_details` (RFC 9396 §2) is a one-element array holding the action object. Tokens does not
///   depend on DeviceKeys, so the action arrives as its RFC 8785 canonical bytes (`DeviceAction.canonicalBytes`
///   of a `VerifiedApproval`) and is embedded verbatim.
/// - `device_key_id` names the device key that approved the action. It is a plain private claim, not `cnf`
///   (RFC 7800): `cnf` would mean the presenter must prove possession of the key on each use, which is not
///   how this token works (the approval signature was the proof).
public struct ActionTokenClaims: JWTClaims, Hashable {
    /// The `typ` header of action tokens.
    public static let type = "action+jwt"
    /// The longest lifetime an action token may have: 5 minutes.
    public static let maximumLifetime: TimeInterval = 300

    /// `iss`.
    public var issuer: String
    /// `sub`: the user who approved.
    public var subject: String
    /// `aud`: the resource server that executes the action, if the deployment names one.
    public var audience: String?
    /// `client_id`: the app that requested the approval.
    public var clientID: String
    /// `jti`: unique, so the resource server can refuse a replay.
    public var jwtID: String
    /// `iat`.
    public var issuedAt: Date
    /// `exp`, at most `maximumLifetime` after `iat`.
    public var expiresAt: Date
    /// The action object as RFC 8785 canonical JSON bytes.
    public var authorizationDetail: [UInt8]
    /// `device_key_id`: the device key that signed the approval.
    public var deviceKeyID: String

    /// Collects the claims. Nothing is validated until `payload()`.
    public init(
        issuer: String, subject: String, audience: String? = nil, clientID: String, jwtID: String, issuedAt: Date,
        expiresAt: Date, authorizationDetail: [UInt8], deviceKeyID: String
    ) {
        self.issuer = issuer
        self.subject = subject
        self.audience = audience
        self.clientID = clientID
        self.jwtID = jwtID
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.authorizationDetail = authorizationDetail
        self.deviceKeyID = deviceKeyID
    }

    /// The payload.
    /// - Throws: `.invalidClaim` for empty identifiers or an action that is not a JSON object with a string
    ///   `type`; `.invalidLifetime` unless `iat < exp ≤ iat + 5 min`.
    public func payload() throws(TokenError) -> [UInt8] {
        guard !issuer.isEmpty, !subject.isEmpty, !clientID.isEmpty, !jwtID.isEmpty, !deviceKeyID.isEmpty,
            audience?.isEmpty != true
        else {
            throw TokenError(
                .invalidClaim, "iss, sub, client_id, jti, device_key_id (and aud if set) must be non-empty")
        }
        // RFC 9396 §2: each authorization detail is an object with a string `type`. Checked here because the
        // bytes are embedded verbatim: anything else would make the payload invalid JSON.
        guard let object = try? JSONValue(parsing: authorizationDetail), object["type"]?.stringValue != nil else {
            throw TokenError(.invalidClaim, "authorization detail must be a JSON object with a string \"type\"")
        }
        let (iat, exp) = try NumericDate.lifetime(issuedAt: issuedAt, expiresAt: expiresAt)
        guard Double(exp - iat) <= Self.maximumLifetime else {
            throw TokenError(
                .invalidLifetime, "action tokens live more than 0 and at most \(Int(Self.maximumLifetime)) s")
        }
        var writer = JSONObjectWriter()
        writer.set("iss", .string(issuer))
        writer.set("sub", .string(subject))
        writer.set("aud", audience.map { .string($0) })
        writer.set("client_id", .string(clientID))
        writer.set("jti", .string(jwtID))
        writer.set("iat", .integer(iat))
        writer.set("exp", .integer(exp))
        writer.set("authorization_details", .raw(JSONObjectWriter.array(ofRaw: [authorizationDetail])))
        writer.set("device_key_id", .string(deviceKeyID))
        return writer.bytes()
    }
}
